#include "CPtrace.h"

#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/user.h>

int typeinfo_ptrace_seize(pid_t thread) {
    return ptrace(PTRACE_SEIZE, thread, 0, 0) == 0 ? 0 : -1;
}

int typeinfo_ptrace_interrupt(pid_t thread) {
    return ptrace(PTRACE_INTERRUPT, thread, 0, 0) == 0 ? 0 : -1;
}

int typeinfo_ptrace_continue(pid_t thread, int signal) {
    return ptrace(PTRACE_CONT, thread, 0, (void *)(intptr_t)signal) == 0 ? 0 : -1;
}

int typeinfo_ptrace_detach(pid_t thread, int signal) {
    return ptrace(PTRACE_DETACH, thread, 0, (void *)(intptr_t)signal) == 0 ? 0 : -1;
}

int typeinfo_ptrace_getregs(pid_t thread, uint64_t *registers, int count) {
#if defined(__x86_64__)
    struct user_regs_struct state;
    if (count < (int)(sizeof state / sizeof(uint64_t))) return -1;
    if (ptrace(PTRACE_GETREGS, thread, 0, &state) != 0) return -1;
    __builtin_memcpy(registers, &state, sizeof state);
    return (int)(sizeof state / sizeof(uint64_t));
#else
    (void)thread; (void)registers; (void)count;
    return -1;
#endif
}
