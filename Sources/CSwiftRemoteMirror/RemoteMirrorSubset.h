// The subset of libswiftRemoteMirror's C API that TypeLowering calls, declared here because the
// toolchain does not ship the header. Reference: swiftlang/swift
// include/swift/SwiftRemoteMirror/{SwiftRemoteMirror.h,SwiftRemoteMirrorTypes.h,MemoryReaderInterface.h}.
// Only types and function-pointer types: nothing links against the library; TypeLowering looks
// each function up with dlsym after dlopen.
#ifndef TYPEINFO_REMOTE_MIRROR_SUBSET_H
#define TYPEINFO_REMOTE_MIRROR_SUBSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint64_t rm_addr_t;
typedef uint64_t rm_typeref_t;
typedef struct SwiftReflectionContext *rm_context_t;

typedef struct rm_section { void *Begin; void *End; } rm_section_t;
typedef struct rm_remote_section { uintptr_t StartAddress; uintptr_t Size; } rm_remote_section_t;
typedef struct rm_section_mapping { rm_section_t local_section; rm_remote_section_t remote_section; } rm_section_mapping_t;

/// swift_reflection_mapping_info_t: field, assocty, builtin, capture, typeref, reflstr (in this order).
typedef struct rm_mapping_info {
    rm_section_mapping_t field;
    rm_section_mapping_t associated_types;
    rm_section_mapping_t builtin_types;
    rm_section_mapping_t capture;
    rm_section_mapping_t type_references;
    rm_section_mapping_t reflection_strings;
} rm_mapping_info_t;

/// swift_layout_kind_t (values in declaration order).
typedef enum rm_layout_kind {
    RM_UNKNOWN, RM_BUILTIN, RM_RAW_POINTER, RM_TUPLE, RM_STRUCT,
    RM_NO_PAYLOAD_ENUM, RM_SINGLE_PAYLOAD_ENUM, RM_MULTI_PAYLOAD_ENUM,
    RM_THICK_FUNCTION, RM_OPAQUE_EXISTENTIAL, RM_CLASS_EXISTENTIAL, RM_ERROR_EXISTENTIAL,
    RM_EXISTENTIAL_METATYPE, RM_STRONG_REFERENCE, RM_UNOWNED_REFERENCE, RM_WEAK_REFERENCE,
    RM_UNMANAGED_REFERENCE, RM_CLASS_INSTANCE, RM_CLOSURE_CONTEXT
} rm_layout_kind_t;

typedef struct rm_typeinfo {
    rm_layout_kind_t Kind;
    unsigned Size;
    unsigned Alignment;
    unsigned Stride;
    unsigned NumFields;
} rm_typeinfo_t;

typedef struct rm_childinfo {
    const char *Name;
    unsigned Offset;
    rm_layout_kind_t Kind;
    rm_typeref_t TR;
} rm_childinfo_t;

/// DataLayoutQueryType: unknown queries are answered with 0 ("not handled").
enum {
    RM_DLQ_GET_POINTER_SIZE = 0, RM_DLQ_GET_SIZE_SIZE = 1, RM_DLQ_GET_PTRAUTH_MASK = 2, RM_DLQ_GET_OBJC_RESERVED_LOW_BITS = 3,
    RM_DLQ_GET_LEAST_VALID_POINTER_VALUE = 4, RM_DLQ_GET_OBJC_INTEROP_IS_ENABLED = 5
};

typedef int (*rm_query_data_layout_fn)(void *context, int type, void *inBuffer, void *outBuffer);
typedef void (*rm_free_bytes_fn)(void *context, const void *bytes, void *freeContext);
typedef const void *(*rm_read_bytes_fn)(void *context, rm_addr_t address, uint64_t size, void **outFreeContext);
typedef uint64_t (*rm_string_length_fn)(void *context, rm_addr_t address);
typedef rm_addr_t (*rm_symbol_address_fn)(void *context, const char *name, uint64_t length);

typedef rm_context_t (*rm_create_context_fn)(void *readerContext, rm_query_data_layout_fn, rm_free_bytes_fn,
                                             rm_read_bytes_fn, rm_string_length_fn, rm_symbol_address_fn);
typedef void (*rm_destroy_context_fn)(rm_context_t);
typedef void (*rm_add_mapping_info_fn)(rm_context_t, rm_mapping_info_t);
typedef rm_typeref_t (*rm_typeref_for_mangled_name_fn)(rm_context_t, const char *name, uint64_t length);
typedef rm_typeref_t (*rm_typeref_for_metadata_fn)(rm_context_t, uintptr_t metadata);
typedef rm_typeinfo_t (*rm_info_for_typeref_fn)(rm_context_t, rm_typeref_t);
typedef char *(*rm_copy_name_for_typeref_fn)(rm_context_t, rm_typeref_t, bool mangled);
typedef rm_childinfo_t (*rm_child_of_typeref_fn)(rm_context_t, rm_typeref_t, unsigned index);
/// The layout of the type whose metadata is at `metadata`: for a class, its instance.
typedef rm_typeinfo_t (*rm_info_for_metadata_fn)(rm_context_t, uintptr_t metadata);
/// Child `index` of the type whose metadata is at `metadata` (a class instance's stored property).
typedef rm_childinfo_t (*rm_child_of_metadata_fn)(rm_context_t, uintptr_t metadata, unsigned index);
/// Prints RemoteInspection's TypeInfo dump of a typeref (`num_extra_inhabitants=` among it) on stdout.
typedef void (*rm_dump_info_for_typeref_fn)(rm_context_t, rm_typeref_t);
/// How many generic arguments a typeref binds at its own level (0 unless it is a bound generic
/// type; a nested type's enclosing type's arguments are not among them).
typedef unsigned (*rm_generic_argument_count_fn)(rm_typeref_t);
/// Generic argument `index` of a bound generic typeref; `index` must be below the count (the
/// library asserts it).
typedef rm_typeref_t (*rm_generic_argument_fn)(rm_typeref_t, unsigned index);
/// Which case the enum value at `address` holds; nonzero on success.
typedef int (*rm_project_enum_value_fn)(rm_context_t, rm_addr_t address, rm_typeref_t, int *caseIndex);

/// swift_async_task_info_t as the Swift 6.3 toolchain's library returns it (sret, 0x60 bytes).
/// Verified against /opt/swift's libswiftRemoteMirror.so by disassembling the stores of
/// swift_reflection_asyncTaskInfo into the returned struct: Kind and EnqueuePriority (8 bytes at
/// 0x08), the four task-kind flags (0x10), IsSynchronousStartTask (0x14, then zero padding to
/// 0x17), MaxPriority (0x18), IsCancelled..HasIsRunning (0x1c), IsRunning, IsEnqueued,
/// HasThreadPort (0x20-0x22), ThreadPort (0x24), Id and RunJob (0x28), AllocatorSlabPtr (0x38),
/// ChildTaskCount (0x40), ChildTasks (0x48), AsyncBacktraceFramesCount (0x50),
/// AsyncBacktraceFrames (0x58). Older and newer libraries differ: see RemoteMirrorConcurrency.swift.
typedef struct rm_async_task_info {
    const char *Error;
    unsigned Kind;
    unsigned EnqueuePriority;
    bool IsChildTask;
    bool IsFuture;
    bool IsGroupChildTask;
    bool IsAsyncLetTask;
    bool IsSynchronousStartTask;
    unsigned MaxPriority;
    bool IsCancelled;
    bool IsStatusRecordLocked;
    bool IsEscalated;
    bool HasIsRunning;
    bool IsRunning;
    bool IsEnqueued;
    bool HasThreadPort;
    uint32_t ThreadPort;
    uint64_t Id;
    rm_addr_t RunJob;
    rm_addr_t AllocatorSlabPtr;
    unsigned ChildTaskCount;
    rm_addr_t *ChildTasks;
    unsigned AsyncBacktraceFramesCount;
    rm_addr_t *AsyncBacktraceFrames;
} rm_async_task_info_t;

/// swift_actor_info_t as the same library returns it (0x20 bytes): State, IsDistributedRemote,
/// IsPriorityEscalated, MaxPriority (4 bytes at 0x08), FirstJob (0x10), HasThreadPort (0x18),
/// ThreadPort (0x1c); verified the same way from swift_reflection_actorInfo's stores.
typedef struct rm_actor_info {
    const char *Error;
    uint8_t State;
    bool IsDistributedRemote;
    bool IsPriorityEscalated;
    uint8_t MaxPriority;
    rm_addr_t FirstJob;
    bool HasThreadPort;
    uint32_t ThreadPort;
} rm_actor_info_t;

// The offsets the disassembly shows, so that a change to the declarations cannot drift from them.
_Static_assert(sizeof(rm_async_task_info_t) == 0x60, "task info size");
_Static_assert(offsetof(rm_async_task_info_t, IsSynchronousStartTask) == 0x14, "IsSynchronousStartTask");
_Static_assert(offsetof(rm_async_task_info_t, MaxPriority) == 0x18, "MaxPriority");
_Static_assert(offsetof(rm_async_task_info_t, IsCancelled) == 0x1c, "IsCancelled");
_Static_assert(offsetof(rm_async_task_info_t, IsRunning) == 0x20, "IsRunning");
_Static_assert(offsetof(rm_async_task_info_t, ThreadPort) == 0x24, "ThreadPort");
_Static_assert(offsetof(rm_async_task_info_t, Id) == 0x28, "Id");
_Static_assert(offsetof(rm_async_task_info_t, AllocatorSlabPtr) == 0x38, "AllocatorSlabPtr");
_Static_assert(offsetof(rm_async_task_info_t, ChildTaskCount) == 0x40, "ChildTaskCount");
_Static_assert(offsetof(rm_async_task_info_t, AsyncBacktraceFrames) == 0x58, "AsyncBacktraceFrames");
_Static_assert(sizeof(rm_actor_info_t) == 0x20, "actor info size");
_Static_assert(offsetof(rm_actor_info_t, FirstJob) == 0x10, "FirstJob");
_Static_assert(offsetof(rm_actor_info_t, ThreadPort) == 0x1c, "actor ThreadPort");

typedef rm_async_task_info_t (*rm_async_task_info_fn)(rm_context_t, rm_addr_t task);
typedef rm_actor_info_t (*rm_actor_info_fn)(rm_context_t, rm_addr_t actor);
/// The job after `job` in an actor's queue, 0 at its end.
typedef rm_addr_t (*rm_next_job_fn)(rm_context_t, rm_addr_t job);

/// swift_metadata_allocation_t: one allocation of the runtime's metadata allocator. Tag 14 is a
/// generic metadata cache's entry (`GenericMetadataCache`).
typedef struct rm_metadata_allocation {
    int Tag;
    rm_addr_t Ptr;
    unsigned Size;
} rm_metadata_allocation_t;
/// The metadata an allocation holds, or 0 (only generic metadata cache entries hold one).
typedef rm_addr_t (*rm_allocation_metadata_pointer_fn)(rm_context_t, rm_metadata_allocation_t);

#endif
