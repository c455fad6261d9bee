// A process whose glibc heap the heap-walk tests read. It allocates blocks of many sizes on the
// main thread and on several threads (each thread gets an arena of its own), makes allocations
// above the mmap threshold, frees thousands of blocks so that tcaches, fastbins, the unsorted
// bin and the small and large bins all hold chunks, then prints (the oracle):
//   pid PID
//   live ADDRESS USABLE_SIZE FIRST_WORD SECOND_WORD   (every block still allocated)
//   freed ADDRESS                                     (every block freed and not handed out again)
//   mmapped COUNT                                     (the live blocks it made above the threshold)
//   malloc_info(3)'s XML
//   end
// and waits to be killed. Nothing is allocated or freed after the frees: stdout has a static
// buffer, and the records live in static arrays. With the argument `grow`, every thread then
// grows and shrinks its heap without end (each growth and trim moves its arena's top and its
// heap_info's size). With the argument `churn`, every thread then
// allocates and frees without end instead (a heap that changes while it is read).
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { threads = 4, perThread = 4000, onMain = 20000, slice = onMain + 2000, slices = threads + 2, maximum = slice * slices };

// Each thread records its blocks in a slice of its own: slice t + 1 for thread t, slice 0 for
// main, the last slice for the thread that reuses an exited thread's arena.
static void *blocks[maximum];
static size_t requested[maximum];
static unsigned char isFreed[maximum];
static int blockCount[slices];
static pthread_barrier_t allocated, freed;
static char output[1 << 16];
static __thread int mySlice;
// Blocks allocated after a free (which may reuse a freed address), to tell freed from reused.
static int late[slices][16];
static int lateCount[slices];
static __thread int hasFreed;

// The test process that started this one: when it is gone (a crash included), this one ends too,
// instead of running on and holding its parent's output pipes open.
static pid_t parent;

static void endWithParent(void) {
    if (getppid() != parent) _exit(0);
}

static int record(void *block, size_t size) {
    int index = mySlice * slice + blockCount[mySlice]++;
    blocks[index] = block;
    requested[index] = size;
    if (hasFreed && lateCount[mySlice] < 16) late[mySlice][lateCount[mySlice]++] = index;
    // The first two words are what the reader reports of each block: a value it can check.
    uint64_t words[2] = {(uint64_t)(uintptr_t)block ^ 0x5a5a5a5a5a5a5a5aULL, (uint64_t)size};
    memcpy(block, words, size < 16 ? size : 16);
    return index;
}

static void release(int index) {
    free(blocks[index]);
    isFreed[index] = 1;
    hasFreed = 1;
}

static size_t nextSize(unsigned *seed) {
    unsigned pick = rand_r(seed) % 100;
    if (pick < 50) return 8 + rand_r(seed) % 120;      // fastbin and tcache sizes
    if (pick < 85) return 128 + rand_r(seed) % 1000;   // tcache and small-bin sizes
    if (pick < 98) return 1100 + rand_r(seed) % 3000;  // small and large bins
    return 0x280;                                       // a tcache's own size: candidates that are not tcaches
}

// Allocates `count` blocks, then frees some in an order that fills every kind of free list:
// large blocks first (unsorted, then sorted into bins by a larger request), then any, then
// small ones last (tcache, then fastbins: a later large free would consolidate fastbins).
static void allocateAndFree(int count, unsigned seed, int mmapped) {
    int first = -1;
    for (int i = 0; i < count; i++) {
        size_t size = nextSize(&seed);
        int index = record(malloc(size), size);
        if (first < 0) first = index;
    }
    for (int i = 0; i < mmapped; i++) {
        size_t size = 200000 + (size_t)i * 100000;
        record(malloc(size), size);
    }
    int last = first + count;
    for (int i = first; i < last; i += 7)
        if (requested[i] > 1100) release(i);
    size_t sorting = 60000;
    record(malloc(sorting), sorting);
    for (int i = first + 3; i < last; i += 5)
        if (!isFreed[i] && requested[i] > 128) release(i);
    for (int i = first + 1; i < last; i += 3)
        if (!isFreed[i] && requested[i] <= 128) release(i);
}

static int churns;
static uint64_t staleKey;
static pthread_barrier_t reused;

// Frees blocks into its tcache and exits: glibc then frees the tcache's entries to the arena
// with their key word (tcache_key) left in place.
static void *exiting(void *unused) {
    void *blocks[20];
    for (int i = 0; i < 20; i++) blocks[i] = malloc(40);
    for (int i = 0; i < 20; i++) free(blocks[i]);
    // The first seven freed went to the tcache: their second word is glibc's tcache_key.
    memcpy(&staleKey, (char *)blocks[6] + 8, 8);
    return NULL;
}

// Takes over the exited thread's arena: its first block comes back from those entries, key word
// and all (it is not written, so the key stays in a block in use).
static void *reusing(void *unused) {
    mySlice = slices - 1;
    for (int i = 0; i < 20; i++) {
        int index = mySlice * slice + blockCount[mySlice]++;
        blocks[index] = malloc(40);
        requested[index] = 40;
    }
    pthread_barrier_wait(&reused);
    for (;;) pause();
}

// Frees and allocates blocks of every kind (tcache, fastbin, bins, mmapped) forever.
static void churn(unsigned seed) {
    void *ring[256] = {0};
    for (unsigned long turn = 0;; turn++) {
        if (turn % 4096 == 0) endWithParent();
        int slot = rand_r(&seed) % 256;
        free(ring[slot]);
        ring[slot] = malloc(rand_r(&seed) % 100 == 0 ? 200000 : nextSize(&seed));
    }
}

static int grows;

// Grows its heap by a mebibyte of 2 KiB blocks, then frees them newest first (each merges into
// the top chunk, and past glibc's trim threshold the heap shrinks), without end: its arena's top,
// its heap_info's size and the maps move all the time.
static void grow(void) {
    void *held[512];
    for (unsigned long turn = 0;; turn++) {
        if (turn % 256 == 0) endWithParent();
        // In bursts of 16 with a pause between (usleep's shortest, tens of microseconds), as a
        // busy server allocates: the reader can find an arena still between two bursts.
        for (int i = 0; i < 512; i++) {
            held[i] = malloc(2048);
            if (i % 16 == 15) usleep(1);
        }
        for (int i = 511; i >= 0; i--) {
            free(held[i]);
            if (i % 16 == 0) usleep(1);
        }
    }
}

static void *thread(void *argument) {
    mySlice = 1 + (int)(uintptr_t)argument;
    // The first thread outgrows its arena's first 64 MiB heap, so its arena has two.
    if (argument == 0)
        for (int i = 0; i < 1800; i++) record(malloc(40000), 40000);
    allocateAndFree(perThread, 1000 + (unsigned)(uintptr_t)argument, 1);
    pthread_barrier_wait(&allocated);
    pthread_barrier_wait(&freed);
    if (churns) churn(2000 + (unsigned)(uintptr_t)argument);
    if (grows) grow();
    for (;;) pause();
}

int main(int argc, char **argv) {
    parent = getppid();
    setvbuf(stdout, output, _IOFBF, sizeof output);
    churns = argc > 1 && strcmp(argv[1], "churn") == 0;
    grows = argc > 1 && strcmp(argv[1], "grow") == 0;
    // The main thread's first allocation is a malloc, which makes its tcache first.
    size_t firstSize = 100;
    record(malloc(firstSize), firstSize);
    pthread_barrier_init(&allocated, NULL, threads + 1);
    pthread_barrier_init(&freed, NULL, threads + 1);
    pthread_t ids[threads];
    for (int i = 0; i < threads; i++) pthread_create(&ids[i], NULL, thread, (void *)(uintptr_t)i);
    pthread_barrier_wait(&allocated);
    pthread_t exiter, reuser;
    pthread_create(&exiter, NULL, exiting, NULL);
    pthread_join(exiter, NULL);
    pthread_barrier_init(&reused, NULL, 2);
    pthread_create(&reuser, NULL, reusing, NULL);
    pthread_barrier_wait(&reused);
    // Aligned blocks: one in the heap, one mmapped and moved into its mapping by memalign; and a
    // block to unmap at the end. Made before the frees: large requests consolidate the fastbins.
    void *aligned;
    if (posix_memalign(&aligned, 256, 1000) == 0) record(aligned, 1000);
    if (posix_memalign(&aligned, 4096, 400000) == 0) record(aligned, 400000);
    size_t gone = 250000;
    int unmapped = record(malloc(gone), gone);
    allocateAndFree(onMain, 7, 3);
    // Blocks of the threads freed by the main thread (into the main thread's tcache or their arena).
    for (int i = slice; i < slice * (threads + 1); i += 97)
        if (blocks[i] != NULL && !isFreed[i] && requested[i] <= 1024) release(i);
    release(unmapped);
    pthread_barrier_wait(&freed);

    printf("pid %d\n", (int)getpid());
    int mmappedLive = 0;
    for (int i = 0; i < maximum; i++) {
        if (blocks[i] == NULL || isFreed[i]) continue;
        // Every block has at least 24 usable bytes: its first 16 can be read whatever its size.
        uint64_t words[2];
        memcpy(words, blocks[i], 16);
        size_t usable = malloc_usable_size(blocks[i]);
        printf("live %p %zu %llu %llu\n", blocks[i], usable, (unsigned long long)words[0], (unsigned long long)words[1]);
        if (requested[i] >= 128 * 1024) mmappedLive++;
    }
    for (int i = 0; i < maximum; i++) {
        if (blocks[i] == NULL || !isFreed[i]) continue;
        // A freed address handed out again is live, not freed.
        int reused = 0;
        for (int t = 0; t < slices; t++)
            for (int j = 0; j < lateCount[t]; j++) reused |= !isFreed[late[t][j]] && blocks[late[t][j]] == blocks[i];
        if (!reused) printf("freed %p\n", blocks[i]);
    }
    printf("mmapped %d\n", mmappedLive);
    printf("stale %llu\n", (unsigned long long)staleKey);
    malloc_info(0, stdout);
    printf("end\n");
    fflush(stdout);
    if (churns) churn(1);
    if (grows) grow();
    for (;;) {
        endWithParent();
        sleep(1);
    }
}
