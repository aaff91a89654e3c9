// A negative control for function_size_test.py: one function over each limit, one within both.
namespace trainproof {

int six(int a, int b, int c, int d, int e, int f) {
  return a + b + c + d + e + f;
}

int five(int a, int b, int c, int d, int e) {
  return a + b + c + d + e;
}

int long_one() {
  int x = 0;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  x += 1;
  return x;
}

}  // namespace trainproof
