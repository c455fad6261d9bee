/* Layouts nobody here wrote: glibc's and Linux's own headers. One object of each type, so the
 * compiler describes every type (and what they contain) in DWARF. */
#define _GNU_SOURCE
#include <dirent.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/timex.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <termios.h>
#include <time.h>

struct stat system_stat;
struct timespec system_timespec;
struct tm system_tm;
struct sockaddr_in system_sockaddr_in;
struct sockaddr_in6 system_sockaddr_in6;
struct sockaddr_storage system_sockaddr_storage;
struct dirent system_dirent;
struct sigaction system_sigaction;
siginfo_t system_siginfo;
FILE system_file;
struct ip system_ip;
struct tcphdr system_tcphdr;
struct pollfd system_pollfd;
pthread_mutex_t system_mutex;
pthread_attr_t system_attr;
struct epoll_event system_epoll_event;
struct rusage system_rusage;
struct timeval system_timeval;
struct timex system_timex;
struct iovec system_iovec;
struct msghdr system_msghdr;
struct utsname system_utsname;
struct termios system_termios;
struct itimerspec system_itimerspec;
