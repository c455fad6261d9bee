/* C layouts for the DWARFInfo tests. Every type here is read from the DWARF of a
 * `clang -g -c` object and checked against the compiler's own sizeof/offsetof/_Alignof,
 * printed by a program generated from this header. Add types freely: the oracle is
 * generated from what the reader finds, and DWARFInfoTests lists the expected members. */
#include <stdint.h>
#include <stdbool.h>

/* Padding: a hole after `tag`, tail padding after `y`. */
struct padded { char tag; double value; short y; };

/* Unions, with an array member longer than the others. */
union number { int32_t i; float f; char bytes[7]; double d; };

/* Bitfields: across storage units, signed and unsigned, bool, a zero-width separator. */
struct flags {
    unsigned int a : 3;
    unsigned int b : 5;
    int c : 7;
    uint64_t d : 40;
    bool e : 1;
    unsigned int : 0;
    unsigned short f : 4;
    char g;
};

/* Enums, and a typedef of an anonymous struct. */
enum color { COLOR_RED, COLOR_GREEN = 5, COLOR_BLUE };
typedef struct { int x; int y; } point_t;

/* Nested structs, anonymous members, arrays, pointers, function pointers, const. */
struct inner { short s; char c; };
struct outer {
    struct inner in;
    union { int32_t as_int; float as_float; };
    struct { uint8_t r, g, b; };
    point_t points[3];
    int (*callback)(int, const char *);
    const char *name;
    char *const fixed;
    int matrix[2][3];
    enum color color;
    struct outer *next;
    uint8_t tail;
};

/* Packed and explicitly aligned layouts. */
struct __attribute__((packed)) packed { char c; int32_t i; int16_t s; };
struct aligned { char c; _Alignas(16) int32_t i; };

/* Bitfields inside an anonymous member, and a flexible array member. */
struct header {
    uint16_t kind;
    struct { unsigned version : 4; unsigned ihl : 4; };
    uint32_t length;
    uint8_t payload[];
};
