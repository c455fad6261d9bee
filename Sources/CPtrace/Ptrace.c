#include "CPtrace.h"

#include <elf.h>
#include <stdint.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
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

int typeinfo_ptrace_getvectorstate(pid_t thread, uint64_t *words, int count) {
#if defined(__x86_64__)
    if (count < 64) return -1;
    struct iovec area = { words, (size_t)count * sizeof(uint64_t) };
    if (ptrace(PTRACE_GETREGSET, thread, (void *)(uintptr_t)NT_X86_XSTATE, &area) == 0) {
        return (int)(area.iov_len / sizeof(uint64_t));
    }
    struct user_fpregs_struct legacy;
    if (ptrace(PTRACE_GETFPREGS, thread, 0, &legacy) != 0) return -1;
    __builtin_memcpy(words, &legacy, sizeof legacy);
    return (int)(sizeof legacy / sizeof(uint64_t));
#else
    (void)thread; (void)words; (void)count;
    return -1;
#endif
}
