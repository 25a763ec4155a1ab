#include <cstdio>
int main() { std::puts("warpsim " WARPSIM_VERSION); return 0; }
