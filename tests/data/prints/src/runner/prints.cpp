// The negative control of prints_test.py: each way of printing to stdout below the CLI, and
// the ways that are allowed (stderr, a comment), which it must not count.
void report() {
  fmt::print("verdict {}\n", 1);
  std::cout << "verdict" << std::endl;
  printf("verdict\n");
  std::fflush(stdout);
  fmt::print(stderr, "progress\n");  // allowed: progress goes to stderr
  std::fprintf(stderr, "warning\n");
  // fmt::print("in a comment") is not code
}
