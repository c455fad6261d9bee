// A process with a known graph of malloc'd blocks, for the reachability tests. It keeps blocks
// reachable in each way a root can hold them (a global, a chain from a global, a thread's stack,
// a thread-local variable, a block in a mapping of its own, a vector register and nothing else)
// and makes blocks no root reaches (single leaks and two-block cycles), then prints, one per line:
//   pid PID
//   reachable ADDRESS HOW     (a block something still points to)
//   vector TID ADDRESS REGISTER  (the thread whose vector register alone holds the `vector`
//                              block at ADDRESS, and the register word, as typeinfo names it)
//   leaked ADDRESS            (a block nothing points to)
//   thread TID LOCAL          (a running thread, and the address of a local of its waiting frame)
//   ended ADDRESS             (the thread block, pthread_self(), of a thread that ended)
//   end
// and waits until its standard input closes. Its own record of the leaked addresses is kept
// XORed with a key, so that the record is no pointer to them.
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { singles = 50, cycles = 20, chain = 30 };
static const uintptr_t key = 0x5a5a5a5a5a5a5a5aULL;

struct node { struct node *next; char payload[40]; };

static void *global_block;
static struct node *global_chain;
// volatile: a store to a static variable nothing reads may be dropped (gcc does).
static __thread void *volatile thread_local_block;
static uintptr_t leaked[2 * (singles + 2 * cycles)];
static int leaked_count;
static void *thread_stack_block_seen;
static pthread_barrier_t ready;
static pid_t holder_id;
static uintptr_t holder_local;
static uintptr_t ended_block;
static pid_t vector_holder_id;
static uintptr_t vector_holder_local;
static uintptr_t vector_block;
static uintptr_t legacy_vector_block;
static const char *vector_register;

static void *holder(void *argument) {
    (void)argument;
    void *volatile on_stack = malloc(72);
    memset((void *)on_stack, 1, 72);
    thread_stack_block_seen = (void *)((uintptr_t)on_stack ^ key);
    thread_local_block = malloc(88);
    *(uintptr_t *)argument = (uintptr_t)thread_local_block ^ key;
    volatile int local = 0;
    holder_id = (pid_t)syscall(SYS_gettid);
    holder_local = (uintptr_t)&local;
    pthread_barrier_wait(&ready);
    for (;;) pause();
    return on_stack;
}

// Holds two blocks whose addresses are each in one vector register and in no other register or
// memory (the records of them are XORed with the key): the first in ymm7's upper half where the
// processor has AVX (only the XSAVE area holds it), else in xmm6; the second in xmm5's upper
// half (the legacy region, as NT_PRFPREG has it too). The addresses is made and moved inside one asm statement, which
// then clears the general-purpose registers and the red zone below the stack pointer it used,
// says it is done, and waits in pause(2) without returning.
#define VECTOR_HOLDER_WAIT                                                                      \
    "leaq -128(%%rsp), %%rdi\n\t"                                                               \
    "movl $16, %%ecx\n\t"                                                                       \
    "xorl %%eax, %%eax\n\t"                                                                     \
    "rep stosq\n\t"                                                                             \
    "xorl %%ebx, %%ebx\n\txorl %%edx, %%edx\n\txorl %%esi, %%esi\n\txorl %%edi, %%edi\n\t"           \
    "xorl %%r8d, %%r8d\n\txorl %%r9d, %%r9d\n\txorl %%r10d, %%r10d\n\txorl %%r11d, %%r11d\n\t"       \
    "xorl %%r12d, %%r12d\n\txorl %%r13d, %%r13d\n\txorl %%r14d, %%r14d\n\txorl %%r15d, %%r15d\n\t"   \
    "movl $1, %2\n"                                                                              \
    "1:\n\t"                                                                                     \
    "movl $34, %%eax\n\t"                                                                       \
    "syscall\n\t"                                                                               \
    "jmp 1b\n"

static volatile int vector_loaded;

static void *vector_holder(void *argument) {
    (void)argument;
    uintptr_t masked = (uintptr_t)malloc(120) ^ key;
    uintptr_t legacy_masked = (uintptr_t)malloc(136) ^ key;
    vector_block = masked;
    legacy_vector_block = legacy_masked;
    volatile int local = 0;
    vector_holder_id = (pid_t)syscall(SYS_gettid);
    vector_holder_local = (uintptr_t)&local;
    int avx = __builtin_cpu_supports("avx");
    vector_register = avx ? "ymm7 bits 128-191" : "xmm6 bits 0-63";
    if (avx) {
        __asm__ volatile("movq %0, %%rax\n\t"
                         "xorq %1, %%rax\n\t"
                         "vmovq %%rax, %%xmm6\n\t"
                         "vinsertf128 $1, %%xmm6, %%ymm7, %%ymm7\n\t"
                         "vpxor %%xmm6, %%xmm6, %%xmm6\n\t"
                         "movq %3, %%rax\n\t"
                         "xorq %1, %%rax\n\t"
                         "vmovq %%rax, %%xmm5\n\t"
                         "vpslldq $8, %%xmm5, %%xmm5\n\t" VECTOR_HOLDER_WAIT
                         :
                         : "m"(masked), "m"(key), "m"(vector_loaded), "m"(legacy_masked)
                         : "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14",
                           "r15", "xmm5", "xmm6", "xmm7", "memory");
    } else {
        __asm__ volatile("movq %0, %%rax\n\t"
                         "xorq %1, %%rax\n\t"
                         "movq %%rax, %%xmm6\n\t"
                         "movq %3, %%rax\n\t"
                         "xorq %1, %%rax\n\t"
                         "movq %%rax, %%xmm5\n\t"
                         "pslldq $8, %%xmm5\n\t" VECTOR_HOLDER_WAIT
                         :
                         : "m"(masked), "m"(key), "m"(vector_loaded), "m"(legacy_masked)
                         : "rax", "rbx", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "r12", "r13", "r14",
                           "r15", "xmm5", "xmm6", "memory");
    }
    return NULL;
}

__attribute__((noinline)) static void make_leaks(void) {
    for (int index = 0; index < singles; index++) {
        void *block = malloc(32 + (size_t)index * 16);
        memset(block, 0, 32 + (size_t)index * 16);
        leaked[leaked_count++] = (uintptr_t)block ^ key;
    }
    for (int index = 0; index < cycles; index++) {
        struct node *first = malloc(sizeof(struct node));
        struct node *second = malloc(sizeof(struct node));
        first->next = second;
        second->next = first;
        leaked[leaked_count++] = (uintptr_t)first ^ key;
        leaked[leaked_count++] = (uintptr_t)second ^ key;
    }
}

// Makes the leaks on a thread of its own, which ends: no live frame or register of the threads
// that go on holds a leaked block's address, only the stale memory of its stack. The first leaker's stack is reused by
// the next thread (glibc's stack cache), below whose stack pointer the leaker's frames stay; the
// second's (`argument` non-null) stays in the cache.
static void *leaker(void *argument) {
    if (argument) ended_block = (uintptr_t)pthread_self();
    make_leaks();
    return NULL;
}

static void endWithParent(void) {
    char byte;
    while (read(0, &byte, 1) > 0) {}
    _exit(0);
}

int main(void) {
    global_block = malloc(100);
    struct node *previous = NULL;
    for (int index = 0; index < chain; index++) {
        struct node *node = malloc(sizeof(struct node));
        node->next = previous;
        previous = node;
    }
    global_chain = previous;
    previous = NULL;
    // A block held only by a pointer in a page of its own (mmap, outside the heap).
    void **page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    page[7] = malloc(56);
    uintptr_t page_block = (uintptr_t)page[7] ^ key;
    pthread_t leaking;
    pthread_create(&leaking, NULL, leaker, NULL);
    pthread_join(leaking, NULL);
    uintptr_t thread_local_seen = 0;
    pthread_barrier_init(&ready, NULL, 2);
    pthread_t thread;
    pthread_create(&thread, NULL, holder, &thread_local_seen);
    pthread_barrier_wait(&ready);
    // Made before the second leaker, whose stack must stay in glibc's cache.
    pthread_t vector_thread;
    pthread_create(&vector_thread, NULL, vector_holder, NULL);
    while (!vector_loaded) usleep(1000);
    pthread_create(&leaking, NULL, leaker, &leaking);
    pthread_join(leaking, NULL);
    volatile int local = 0;
    printf("pid %d\n", (int)getpid());
    printf("thread %d %p\n", (int)getpid(), (void *)&local);
    printf("thread %d 0x%lx\n", (int)holder_id, (unsigned long)holder_local);
    printf("thread %d 0x%lx\n", (int)vector_holder_id, (unsigned long)vector_holder_local);
    printf("ended 0x%lx\n", (unsigned long)ended_block);
    printf("reachable 0x%lx vector\n", (unsigned long)(vector_block ^ key));
    printf("reachable 0x%lx vector\n", (unsigned long)(legacy_vector_block ^ key));
    printf("vector %d 0x%lx %s\n", (int)vector_holder_id, (unsigned long)(vector_block ^ key), vector_register);
    printf("vector %d 0x%lx xmm5 bits 64-127\n", (int)vector_holder_id, (unsigned long)(legacy_vector_block ^ key));
    printf("reachable %p global\n", global_block);
    for (struct node *node = global_chain; node; node = node->next) printf("reachable %p chain\n", (void *)node);
    printf("reachable 0x%lx stack\n", (unsigned long)((uintptr_t)thread_stack_block_seen ^ key));
    printf("reachable 0x%lx thread-local\n", (unsigned long)(thread_local_seen ^ key));
    printf("reachable 0x%lx mapping\n", (unsigned long)(page_block ^ key));
    for (int index = 0; index < leaked_count; index++) printf("leaked 0x%lx\n", (unsigned long)(leaked[index] ^ key));
    printf("end\n");
    fflush(stdout);
    // printf's frames, below main's stack pointer now, still hold the addresses it printed: stale
    // memory, which must not keep the leaked blocks reachable.
    endWithParent();
    return 0;
}
