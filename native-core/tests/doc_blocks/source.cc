// The file the blocks of drifted.md quote (not compiled: a fixture of check_doc_blocks.cmake).
int add(int a, int b) { return a + b; }
