// The subset of lib_InternalSwiftStaticMirror's C API that BinaryInfoTests call, declared here
// because the toolchain does not ship the header. Reference: swiftlang/swift
// include/swift-c/StaticMirror/BinaryScan.h and include/swift-c/CommonString/CommonString.h.
// Only types and function-pointer types: nothing links against the library; the tests look each
// function up with dlsym after dlopen (the library is an oracle that may be absent).
#ifndef TYPEINFO_STATIC_MIRROR_SUBSET_H
#define TYPEINFO_STATIC_MIRROR_SUBSET_H

#include <stddef.h>

/// swiftscan_string_ref_t: not NUL-terminated; data is null for an empty string.
typedef struct sm_string_ref { const void *data; size_t length; } sm_string_ref_t;

typedef void *sm_mirror_t;
typedef struct sm_field_info_s *sm_field_info_t;
typedef struct sm_property_info_s *sm_property_info_t;
typedef struct sm_enum_case_info_s *sm_enum_case_info_t;

typedef struct { sm_property_info_t *properties; size_t count; } sm_property_info_set_t;
typedef struct { sm_enum_case_info_t *enum_cases; size_t count; } sm_enum_case_info_set_t;
typedef struct { sm_field_info_t *field_infos; size_t count; } sm_field_info_set_t;

/// swift_static_mirror_create(count, paths, architecture): architecture must not be null.
typedef sm_mirror_t (*sm_create_fn)(int, const char **, const char *);
typedef void (*sm_dispose_fn)(sm_mirror_t);
typedef sm_field_info_set_t *(*sm_all_field_info_set_create_fn)(sm_mirror_t);
typedef void (*sm_field_info_set_dispose_fn)(sm_field_info_set_t *);
typedef sm_string_ref_t (*sm_field_info_get_mangled_type_name_fn)(sm_field_info_t);
typedef sm_property_info_set_t *(*sm_field_info_get_property_info_set_fn)(sm_field_info_t);
typedef sm_enum_case_info_set_t *(*sm_field_info_get_enum_case_info_set_fn)(sm_field_info_t);
typedef sm_string_ref_t (*sm_property_info_get_string_fn)(sm_property_info_t);
typedef sm_string_ref_t (*sm_enum_case_info_get_label_fn)(sm_enum_case_info_t);

#endif
