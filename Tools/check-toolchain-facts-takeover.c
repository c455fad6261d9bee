// The loading side of Tools/check-toolchain-facts, linked into libfactcheck.so with the runtime
// checker (factcheck_main).
//
// Shared libraries: the host executable (FACTCHECK_HOST) calls factcheck_host(path), which
// dlopens the image so its metadata is registered with the runtime, then checks.
//
// Executables cannot be dlopened. With FACTCHECK_TAKEOVER=PATH and this library in LD_PRELOAD,
// __libc_start_main is interposed: the real one still runs the executable's constructors (which
// register its Swift metadata), but the main it calls is factcheck_main's wrapper, so the
// executable's own main never runs. Only the process whose executable is PATH is taken over, not
// a wrapper (timeout, env) that happens to inherit the variables.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern int factcheck_main(void);

typedef int (*main_function)(int, char **, char **);
typedef int (*start_main_function)(main_function, int, char **, void (*)(void), void (*)(void),
                                   void (*)(void), void *);

static int checker_instead_of_main(int argc, char **argv, char **envp) {
    (void)argc; (void)argv; (void)envp;
    int status = factcheck_main();
    fflush(NULL);
    // _exit: the executable's atexit handlers and destructors belong to a main that never ran.
    _exit(status);
}

int __libc_start_main(main_function main, int argc, char **argv, void (*init)(void),
                      void (*fini)(void), void (*rtld_fini)(void), void *stack_end) {
    start_main_function real = (start_main_function)dlsym(RTLD_NEXT, "__libc_start_main");
    if (real == NULL) {
        fprintf(stderr, "factcheck: no __libc_start_main after the preloaded library\n");
        _exit(3);
    }
    const char *takeover = getenv("FACTCHECK_TAKEOVER");
    char self[PATH_MAX], target[PATH_MAX];
    if (takeover != NULL && realpath("/proc/self/exe", self) != NULL && realpath(takeover, target) != NULL
        && strcmp(self, target) == 0) {
        // Only the checked executable: anything it would spawn runs normally.
        unsetenv("FACTCHECK_TAKEOVER");
        unsetenv("LD_PRELOAD");
        return real(checker_instead_of_main, argc, argv, init, fini, rtld_fini, stack_end);
    }
    return real(main, argc, argv, init, fini, rtld_fini, stack_end);
}

int factcheck_host(const char *path) {
    void *image = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    if (image == NULL) {
        fprintf(stderr, "factcheck: dlopen %s: %s\n", path, dlerror());
        return 3;
    }
    return factcheck_main();
}

struct load_search {
    const char *wanted;
    uintptr_t found;
    int matched;
};

static int match_object(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    struct load_search *search = context;
    if (search->wanted == NULL) {
        // The first object is the main program.
        search->found = (uintptr_t)info->dlpi_addr;
        search->matched = 1;
        return 1;
    }
    char real[PATH_MAX];
    if (info->dlpi_name != NULL && info->dlpi_name[0] != '\0' && realpath(info->dlpi_name, real) != NULL
        && strcmp(real, search->wanted) == 0) {
        search->found = (uintptr_t)info->dlpi_addr;
        search->matched = 1;
        return 1;
    }
    return 0;
}

// The load address of the loaded object at `path` (NULL: the main program), to relocate symbol
// table addresses; -1 when no such object is loaded.
intptr_t factcheck_load_address(const char *path) {
    char wanted[PATH_MAX];
    struct load_search search = { NULL, 0, 0 };
    if (path != NULL) {
        if (realpath(path, wanted) == NULL) return -1;
        search.wanted = wanted;
    }
    dl_iterate_phdr(match_object, &search);
    return search.matched ? (intptr_t)search.found : -1;
}
