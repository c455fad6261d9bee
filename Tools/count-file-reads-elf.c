// LD_PRELOAD shim for Tools/count-file-reads: counts libelf parses (elf_memory, elf_begin) by image size, printed at exit.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libelf.h>
static size_t sizes[256]; static int counts[256]; static int used;
static void record(size_t size) {
    for (int i = 0; i < used; i++) if (sizes[i] == size) { counts[i]++; return; }
    if (used < 256) { sizes[used] = size; counts[used++] = 1; }
}
static void report(void) {
    for (int i = 0; i < used; i++) fprintf(stderr, "elf-parse pid %d size %zu count %d\n", getpid(), sizes[i], counts[i]);
}
Elf *elf_memory(char *image, size_t size) {
    static Elf *(*real)(char *, size_t);
    static int registered;
    if (!real) real = dlsym(RTLD_NEXT, "elf_memory");
    if (!registered) { registered = 1; atexit(report); }
    record(size);
    return real(image, size);
}
Elf *elf_begin(int fd, Elf_Cmd cmd, Elf *ref) {
    static Elf *(*real)(int, Elf_Cmd, Elf *);
    static int registered;
    if (!real) real = dlsym(RTLD_NEXT, "elf_begin");
    if (!registered) { registered = 1; atexit(report); }
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0) record((size_t)st.st_size);
    return real(fd, cmd, ref);
}
