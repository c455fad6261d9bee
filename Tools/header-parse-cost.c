// The cost of one libelf parse of a file's section headers (elf_memory, every header and its name),
// for docs/performance.md "One reading of the file":
//   gcc -O2 -o /tmp/header-parse-cost Tools/header-parse-cost.c -lelf && /tmp/header-parse-cost FILE
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
int main(int argc, char **argv) {
    int fd = open(argv[1], O_RDONLY); struct stat st; fstat(fd, &st);
    char *base = mmap(0, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    elf_version(EV_CURRENT);
    int runs = 2000; size_t names = 0;
    struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < runs; i++) {
        Elf *elf = elf_memory(base, st.st_size); size_t strndx; elf_getshdrstrndx(elf, &strndx);
        for (Elf_Scn *s = elf_nextscn(elf, 0); s; s = elf_nextscn(elf, s)) { GElf_Shdr sh; gelf_getshdr(s, &sh); names += elf_strptr(elf, strndx, sh.sh_name)[0]; }
        elf_end(elf);
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("%s: %.1f us per headers parse (%zu)\n", argv[1], ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / runs / 1000, names);
}
