// The negative control of prints_test.py: each way of printing below the CLI, to stdout or
// stderr, and what is not a print (a comment, a string), which it must not count.
void report() {
  fmt::print("verdict {}\n", 1);
  std::cout << "verdict" << std::endl;
  printf("verdict\n");
  std::fflush(stdout);
  fmt::print(stderr, "progress\n");
  std::fprintf(stderr, "warning\n");
  std::cerr << "warning" << std::endl;
  const char* name = "stderr";  // a file's name in a string is not a print
  // fmt::print("in a comment") is not code
}
