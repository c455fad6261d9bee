#ifndef TYPEINFO_CPTRACE_H
#define TYPEINFO_CPTRACE_H

// The four ptrace(2) requests `--pause` uses to hold a process's threads still, and those that
// read a held thread's registers, general-purpose and vector (`leaks`: a register can hold the
// only reference to an object). No request that writes the target, or reads its memory, is
// reachable from here. (ptrace is variadic in C, which Swift does not call.)

#include <stdint.h>
#include <sys/types.h>

/// PTRACE_SEIZE: attaches to the thread `thread` without stopping it. Returns 0, or -1 with errno.
int typeinfo_ptrace_seize(pid_t thread);
/// PTRACE_INTERRUPT: asks the seized thread `thread` to stop. Returns 0, or -1 with errno.
int typeinfo_ptrace_interrupt(pid_t thread);
/// PTRACE_CONT: lets the stopped thread `thread` run, delivering `signal` (0: none).
int typeinfo_ptrace_continue(pid_t thread, int signal);
/// PTRACE_DETACH: lets the stopped thread `thread` go, delivering `signal` (0: none).
int typeinfo_ptrace_detach(pid_t thread, int signal);

/// PTRACE_GETREGS: copies the stopped thread's `struct user_regs_struct` (x86_64: 27 words, in
/// the kernel's order) into `registers`, which holds `count` words. Returns the number of words
/// written, or -1 with errno (also on another machine, or when `count` is too small).
int typeinfo_ptrace_getregs(pid_t thread, uint64_t *registers, int count);

/// PTRACE_GETREGSET with NT_X86_XSTATE: copies the stopped thread's XSAVE area (the 512-byte
/// legacy region with x87 and xmm registers, the XSAVE header, then the enabled components in the
/// standard format, such as ymm registers' upper halves at 576) into `words`, which holds `count`
/// words (at least 64; the kernel writes at most that). Where the kernel offers no XSAVE area,
/// PTRACE_GETFPREGS's 512-byte legacy region instead. Returns the number of words written, or -1
/// with errno (also on another machine).
int typeinfo_ptrace_getvectorstate(pid_t thread, uint64_t *words, int count);

/// The wait status of a seized thread's PTRACE_INTERRUPT stop (`status >> 16`).
#define TYPEINFO_PTRACE_EVENT_STOP 128

#endif
