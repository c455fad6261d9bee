#include "CPtrace.h"

#include <stdint.h>
#include <sys/ptrace.h>

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
