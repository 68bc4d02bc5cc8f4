#include <cstdio>
int main() { std::puts("skillrt"); return 0; }
