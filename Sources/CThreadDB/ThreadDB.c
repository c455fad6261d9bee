// The one file that calls glibc's libthread_db, and the proc_service callbacks it needs from
// the program that loads it. libthread_db reads the target only through ps_pdread and
// ps_pglobal_lookup here; every request to write the target or its registers is refused.
//
// The library is the program's own (linked, which also exports the ps_* callbacks from the
// executable for every copy) or one loaded with dlopen: the target's, which matches the target's
// C library where the program's may not (libthread_db refuses another glibc's with TD_VERSION).

// dladdr
#define _GNU_SOURCE

#include "CThreadDB.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <proc_service.h>
#include <string.h>

struct ps_prochandle {
    const typeinfo_thread_target_t *target;
};

ps_err_e ps_pdread(struct ps_prochandle *handle, psaddr_t address, void *buffer, size_t size) {
    if (handle == NULL || handle->target == NULL) return PS_BADPID;
    const typeinfo_thread_target_t *target = handle->target;
    return target->read(target->context, (uint64_t)(uintptr_t)address, buffer, size) == 0 ? PS_OK : PS_BADADDR;
}

ps_err_e ps_pdwrite(struct ps_prochandle *handle, psaddr_t address, const void *buffer, size_t size) {
    (void)handle, (void)address, (void)buffer, (void)size;
    return PS_ERR;
}

ps_err_e ps_ptread(struct ps_prochandle *handle, psaddr_t address, void *buffer, size_t size) {
    return ps_pdread(handle, address, buffer, size);
}

ps_err_e ps_ptwrite(struct ps_prochandle *handle, psaddr_t address, const void *buffer, size_t size) {
    (void)handle, (void)address, (void)buffer, (void)size;
    return PS_ERR;
}

// Threads are found by walking the thread library's lists, never from registers: a running
// process is not attached, so its registers are not known.
ps_err_e ps_lgetregs(struct ps_prochandle *handle, lwpid_t lwp, prgregset_t registers) {
    (void)handle, (void)lwp, (void)registers;
    return PS_ERR;
}

ps_err_e ps_lsetregs(struct ps_prochandle *handle, lwpid_t lwp, const prgregset_t registers) {
    (void)handle, (void)lwp, (void)registers;
    return PS_ERR;
}

ps_err_e ps_lgetfpregs(struct ps_prochandle *handle, lwpid_t lwp, prfpregset_t *registers) {
    (void)handle, (void)lwp, (void)registers;
    return PS_NOFREGS;
}

ps_err_e ps_lsetfpregs(struct ps_prochandle *handle, lwpid_t lwp, const prfpregset_t *registers) {
    (void)handle, (void)lwp, (void)registers;
    return PS_ERR;
}

ps_err_e ps_get_thread_area(struct ps_prochandle *handle, lwpid_t lwp, int index, psaddr_t *address) {
    (void)handle, (void)lwp, (void)index, (void)address;
    return PS_ERR;
}

pid_t ps_getpid(struct ps_prochandle *handle) {
    return handle != NULL && handle->target != NULL ? (pid_t)handle->target->process_id : 0;
}

ps_err_e ps_pglobal_lookup(struct ps_prochandle *handle, const char *object, const char *symbol, psaddr_t *address) {
    if (handle == NULL || handle->target == NULL || symbol == NULL || address == NULL) return PS_ERR;
    const typeinfo_thread_target_t *target = handle->target;
    uint64_t value = 0;
    if (target->lookup(target->context, object != NULL ? object : "", symbol, &value) != 0) return PS_NOSYM;
    *address = (psaddr_t)(uintptr_t)value;
    return PS_OK;
}

/// What the iteration callback fills.
struct thread_list {
    typeinfo_thread_t *threads;
    size_t capacity;
    size_t count;
    int truncated;
    uint64_t link_map;
    const typeinfo_thread_db_t *db;
    const uint64_t *tls_offsets;
    size_t tls_count;
};

/// The libthread_db functions used, from one library.
struct typeinfo_thread_db {
    void *handle;
    td_err_e (*init)(void);
    td_err_e (*ta_new)(struct ps_prochandle *, td_thragent_t **);
    td_err_e (*ta_delete)(td_thragent_t *);
    td_err_e (*ta_thr_iter)(const td_thragent_t *, td_thr_iter_f *, void *, td_thr_state_e, int, sigset_t *, unsigned int);
    td_err_e (*thr_get_info)(const td_thrhandle_t *, td_thrinfo_t *);
    td_err_e (*thr_tls_get_addr)(const td_thrhandle_t *, psaddr_t, size_t, psaddr_t *);
};

typeinfo_thread_db_t *typeinfo_thread_db_open(const char *path, char *error, size_t error_size) {
    typeinfo_thread_db_t *db = calloc(1, sizeof *db);
    if (db == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    if (path == NULL) {
        db->init = td_init;
        db->ta_new = td_ta_new;
        db->ta_delete = td_ta_delete;
        db->ta_thr_iter = td_ta_thr_iter;
        db->thr_get_info = td_thr_get_info;
        db->thr_tls_get_addr = td_thr_tls_get_addr;
        return db;
    }
    // Local: its symbols must not take the place of the linked library's for anyone else.
    db->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (db->handle == NULL) {
        const char *reason = dlerror();
        snprintf(error, error_size, "%s", reason != NULL ? reason : "dlopen failed");
        free(db);
        return NULL;
    }
    db->init = (td_err_e (*)(void))dlsym(db->handle, "td_init");
    db->ta_new = (td_err_e (*)(struct ps_prochandle *, td_thragent_t **))dlsym(db->handle, "td_ta_new");
    db->ta_delete = (td_err_e (*)(td_thragent_t *))dlsym(db->handle, "td_ta_delete");
    db->ta_thr_iter = (td_err_e (*)(const td_thragent_t *, td_thr_iter_f *, void *, td_thr_state_e, int, sigset_t *,
                                    unsigned int))dlsym(db->handle, "td_ta_thr_iter");
    db->thr_get_info = (td_err_e (*)(const td_thrhandle_t *, td_thrinfo_t *))dlsym(db->handle, "td_thr_get_info");
    db->thr_tls_get_addr =
        (td_err_e (*)(const td_thrhandle_t *, psaddr_t, size_t, psaddr_t *))dlsym(db->handle, "td_thr_tls_get_addr");
    if (db->init == NULL || db->ta_new == NULL || db->ta_delete == NULL || db->ta_thr_iter == NULL ||
        db->thr_get_info == NULL || db->thr_tls_get_addr == NULL) {
        snprintf(error, error_size, "it does not define every td_* function used (td_init, td_ta_new, td_ta_delete, "
                                    "td_ta_thr_iter, td_thr_get_info, td_thr_tls_get_addr): not a libthread_db");
        dlclose(db->handle);
        free(db);
        return NULL;
    }
    return db;
}

const char *typeinfo_thread_db_linked_path(void) {
    Dl_info info;
    if (dladdr((void *)td_init, &info) == 0 || info.dli_fname == NULL) return NULL;
    return info.dli_fname;
}

void typeinfo_thread_db_close(typeinfo_thread_db_t *db) {
    if (db == NULL) return;
    if (db->handle != NULL) dlclose(db->handle);
    free(db);
}

static int visit_thread(const td_thrhandle_t *handle, void *data) {
    struct thread_list *list = data;
    if (list->count >= list->capacity) {
        list->truncated = 1;
        return 1;
    }
    typeinfo_thread_t *thread = &list->threads[list->count++];
    memset(thread, 0, sizeof *thread);
    thread->descriptor = (uint64_t)(uintptr_t)handle->th_unique;
    td_thrinfo_t info;
    memset(&info, 0, sizeof info);
    thread->info_error = list->db->thr_get_info(handle, &info);
    thread->lwp = thread->info_error == TD_OK ? (int32_t)info.ti_lid : -1;
    for (size_t index = 0; index < list->tls_count && index < TYPEINFO_THREAD_TLS_VARIABLES; index++) {
        psaddr_t address = 0;
        thread->tls_error[index] =
            list->db->thr_tls_get_addr(handle, (psaddr_t)(uintptr_t)list->link_map, (size_t)list->tls_offsets[index], &address);
        thread->tls[index] = thread->tls_error[index] == TD_OK ? (uint64_t)(uintptr_t)address : 0;
    }
    return 0;
}

td_err_e typeinfo_read_threads(const typeinfo_thread_db_t *db, const typeinfo_thread_target_t *target, uint64_t link_map, const uint64_t *tls_offsets,
                               size_t tls_count, typeinfo_thread_t *threads, size_t capacity, size_t *count, int *truncated,
                               typeinfo_thread_stage_t *stage) {
    *count = 0;
    *truncated = 0;
    *stage = TYPEINFO_THREAD_STAGE_INIT;
    td_err_e error = db->init();
    if (error != TD_OK) return error;
    struct ps_prochandle handle = {target};
    td_thragent_t *agent = NULL;
    *stage = TYPEINFO_THREAD_STAGE_AGENT;
    error = db->ta_new(&handle, &agent);
    if (error != TD_OK) return error;
    struct thread_list list = {threads, capacity, 0, 0, link_map, db, tls_offsets, tls_count};
    *stage = TYPEINFO_THREAD_STAGE_ITERATE;
    // The lowest priority there is: every thread of the list reaches the callback, which counts
    // them (a filter that skipped entries of a looping list would never end).
    error = db->ta_thr_iter(agent, visit_thread, &list, TD_THR_ANY_STATE, INT_MIN, TD_SIGNO_MASK, TD_THR_ANY_USER_FLAGS);
    db->ta_delete(agent);
    *count = list.count;
    *truncated = list.truncated;
    // The callback's stop at `capacity` is reported by the library as an error; it is not one.
    if (list.truncated) return TD_OK;
    *stage = error == TD_OK ? TYPEINFO_THREAD_STAGE_NONE : TYPEINFO_THREAD_STAGE_ITERATE;
    return error;
}
