// The floor of a heap reading: copies every writable anonymous mapping of a process (its heaps,
// and the rest malloc may use) with process_vm_readv in windows of WINDOW bytes (default 4 MiB),
// and prints the bytes, system calls and wall time; run it under GNU time for the CPU time.
//
//   gcc -O2 -o /tmp/read-floor Tools/read-floor.c && /usr/bin/time /tmp/read-floor PID [WINDOW]
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: read-floor PID [WINDOW]\n");
        return 2;
    }
    int pid = atoi(argv[1]);
    size_t window = argc > 2 ? strtoull(argv[2], 0, 0) : (4 << 20);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/maps", pid);
    FILE *maps = fopen(path, "r");
    char *buffer = malloc(window);
    if (!maps || !buffer || window == 0) {
        perror("read-floor");
        return 1;
    }
    memset(buffer, 0, window);
    char line[4096];
    size_t total = 0, calls = 0;
    double start = now();
    while (fgets(line, sizeof line, maps)) {
        unsigned long low, high, offset, inode;
        char permissions[8], device[16], name[4096] = "";
        if (sscanf(line, "%lx-%lx %7s %lx %15s %lu %4095s", &low, &high, permissions, &offset, device, &inode, name) < 6)
            continue;
        // Writable, anonymous, not the main thread's stack: where malloc's memory is.
        if (permissions[1] != 'w' || inode != 0 || strcmp(name, "[stack]") == 0)
            continue;
        for (unsigned long address = low; address < high; address += window) {
            size_t length = high - address < window ? high - address : window;
            struct iovec local = {buffer, length}, remote = {(void *)address, length};
            ssize_t got = process_vm_readv(pid, &local, 1, &remote, 1, 0);
            calls++;
            if (got > 0)
                total += (size_t)got;
        }
    }
    printf("read %zu bytes in %zu calls, %.3f s (window %zu)\n", total, calls, now() - start, window);
    return 0;
}
