#ifndef TYPEINFO_CPTRACE_H
#define TYPEINFO_CPTRACE_H

// The four ptrace(2) requests `--pause` uses to hold a process's threads still, and nothing else:
// no request that reads or writes the target's memory or registers is reachable from here.
// (ptrace is variadic in C, which Swift does not call.)

#include <sys/types.h>

/// PTRACE_SEIZE: attaches to the thread `thread` without stopping it. Returns 0, or -1 with errno.
int typeinfo_ptrace_seize(pid_t thread);
/// PTRACE_INTERRUPT: asks the seized thread `thread` to stop. Returns 0, or -1 with errno.
int typeinfo_ptrace_interrupt(pid_t thread);
/// PTRACE_CONT: lets the stopped thread `thread` run, delivering `signal` (0: none).
int typeinfo_ptrace_continue(pid_t thread, int signal);
/// PTRACE_DETACH: lets the stopped thread `thread` go, delivering `signal` (0: none).
int typeinfo_ptrace_detach(pid_t thread, int signal);

/// The wait status of a seized thread's PTRACE_INTERRUPT stop (`status >> 16`).
#define TYPEINFO_PTRACE_EVENT_STOP 128

#endif
