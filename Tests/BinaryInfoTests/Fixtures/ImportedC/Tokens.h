// Imported C types shaped like libyaml's (yaml.h): structs with anonymous union and struct
// members. Swift names each anonymous member type after its field (`__Unnamed_union_data`),
// so several of them share a name while their layouts differ.
#include <stddef.h>

typedef struct token_s {
    int type;
    union {
        struct { int encoding; } stream_start;
        struct { char *value; } alias;
        struct { char *value; size_t length; int style; } scalar;
        struct { char *handle; char *suffix; } tag;
    } data;
    struct { size_t index; size_t line; } start_mark;
} token_t;

typedef struct event_s {
    int type;
    union {
        struct { char *anchor; char *tag; char *value; size_t length; int plain, quoted, style; } scalar;
        struct { char *anchor; } alias;
    } data;
} event_t;

typedef struct node_s {
    int type;
    char *tag;
    union {
        struct { char *value; size_t length; int style; } scalar;
        struct { struct { int *start; int *end; int *top; } items; int style; } sequence;
    } data;
} node_t;

typedef struct document_s {
    struct { node_t *start; node_t *end; node_t *top; } nodes;
    struct { char *start; char *end; } tag_directives;
    struct { char *start; char *end; } buffer;
    int start_implicit;
} document_t;

typedef struct parser_s {
    int error;
    struct { char *start; char *end; char *top; } tag_directives;
    struct { char *start; char *end; } buffer;
    struct { size_t *start; size_t *end; size_t *top; } marks;
} parser_t;
