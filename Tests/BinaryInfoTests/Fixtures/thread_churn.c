// A process that makes and ends threads without pause (each lives about a millisecond), for
// ProcessPause's tests: threads appear and exit while it is being stopped. Prints its id, then
// runs until killed.
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *brief(void *unused) {
    (void)unused;
    usleep(1000);
    return NULL;
}

int main(void) {
    printf("%d\n", (int)getpid());
    fflush(stdout);
    for (;;) {
        pthread_t thread;
        if (pthread_create(&thread, NULL, brief, NULL) == 0) pthread_detach(thread);
        usleep(200);
    }
}
