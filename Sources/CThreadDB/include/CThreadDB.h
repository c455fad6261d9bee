#ifndef TYPEINFO_CTHREADDB_H
#define TYPEINFO_CTHREADDB_H

// glibc's libthread_db, as the typeinfo-lowering worker uses it: a target's threads, their kernel
// ids and the addresses of thread-local variables in each, read through callbacks the worker
// supplies (the proc_service interface ThreadDB.c defines). The target is only ever read.

#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <thread_db.h>

/// The most thread-local variables resolved per thread.
#define TYPEINFO_THREAD_TLS_VARIABLES 2

/// How libthread_db reaches the target: the worker's readers.
typedef struct typeinfo_thread_target {
    /// Handed back to the callbacks.
    void *context;
    /// The process id (of the process, or the one a core file states).
    int32_t process_id;
    /// Copies `size` bytes of the target at `address` into `buffer`; returns 0 when every byte
    /// was read.
    int (*read)(void *context, uint64_t address, void *buffer, size_t size);
    /// The target address of `symbol` in the image libthread_db names `object` ("libc.so.6",
    /// "ld-linux-x86-64.so.2"); returns 0 when found.
    int (*lookup)(void *context, const char *object, const char *symbol, uint64_t *address);
} typeinfo_thread_target_t;

/// One thread of the target.
typedef struct typeinfo_thread {
    /// The thread's descriptor (`struct pthread`) address; 0 for the one thread of a process
    /// whose thread library has not initialised its lists.
    uint64_t descriptor;
    /// Its kernel thread id (`ti_lid`), valid when `info_error` is TD_OK.
    int32_t lwp;
    /// `td_thr_get_info`'s result.
    int32_t info_error;
    /// The address of each requested thread-local variable in this thread, valid where the
    /// matching `tls_error` is TD_OK.
    uint64_t tls[TYPEINFO_THREAD_TLS_VARIABLES];
    int32_t tls_error[TYPEINFO_THREAD_TLS_VARIABLES];
} typeinfo_thread_t;

/// Which libthread_db call failed.
typedef enum typeinfo_thread_stage {
    TYPEINFO_THREAD_STAGE_NONE = 0,
    TYPEINFO_THREAD_STAGE_INIT,
    TYPEINFO_THREAD_STAGE_AGENT,
    TYPEINFO_THREAD_STAGE_ITERATE,
} typeinfo_thread_stage_t;

/// The libthread_db a reading uses: the program's own, or one loaded from a file.
typedef struct typeinfo_thread_db typeinfo_thread_db_t;

/// Opens the libthread_db at `path` with dlopen (the target's own, which matches its C library),
/// or the one the program links when `path` is NULL. Returns NULL, with the reason in `error`
/// (dlerror's text, or a missing function), when it cannot be loaded.
typeinfo_thread_db_t *typeinfo_thread_db_open(const char *path, char *error, size_t error_size);

/// The path of the libthread_db the program links (the file the dynamic linker loaded), or NULL
/// when it cannot be told.
const char *typeinfo_thread_db_linked_path(void);

/// Closes what typeinfo_thread_db_open opened.
void typeinfo_thread_db_close(typeinfo_thread_db_t *db);

/// Lists, with `db`, the target's threads (at most `capacity`) with the addresses, in each, of the
/// thread-local variables at `tls_offsets` (`tls_count` of them, at most
/// TYPEINFO_THREAD_TLS_VARIABLES) of the module whose `struct link_map` is at `link_map`.
///
/// Returns TD_OK, or libthread_db's error with `*stage` naming the call that failed. `*count`
/// threads were filled; `*truncated` is 1 when the list held more than `capacity` (a list that
/// loops in damaged memory ends there).
td_err_e typeinfo_read_threads(const typeinfo_thread_db_t *db, const typeinfo_thread_target_t *target, uint64_t link_map, const uint64_t *tls_offsets,
                               size_t tls_count, typeinfo_thread_t *threads, size_t capacity, size_t *count, int *truncated,
                               typeinfo_thread_stage_t *stage);

#endif
