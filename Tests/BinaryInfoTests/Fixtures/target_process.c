// A process whose memory the target-reader tests read: it prints its pid, the address and
// size of a heap buffer and the buffer's bytes in hex (the oracle), then waits to be killed.
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/random.h>

int main(void) {
    // Ends when the test process that started it is gone (a crash included), instead of holding
    // its parent's output pipes open.
    pid_t parent = getppid();
    enum { size = 4096 };
    unsigned char *buffer = malloc(size);
    if (buffer == NULL || getrandom(buffer, size, 0) != size) return 1;
    printf("%d %p %d ", (int)getpid(), (void *)buffer, size);
    for (int i = 0; i < size; i++) printf("%02x", buffer[i]);
    printf("\n");
    fflush(stdout);
    while (getppid() == parent) sleep(1);
    return 0;
}
