// C++ layouts for the DWARFInfo tests: namespaces, nested types, inheritance, a virtual
// table pointer, static members, references and scoped enums. Checked against the
// compiler's own sizeof/alignof/offsetof by a program generated from the reader's findings.
#include <cstdint>

namespace geo {
struct Vec { float x, y, z; };

namespace detail {
struct Node {
    struct Link { Node *next; std::uint16_t weight; };
    Link link;
    std::int32_t id;
    static int instances;
};
}

struct Base { std::int64_t a; char tag; };
struct Derived : Base { std::int16_t extra; double value; };

class Shape {
public:
    virtual ~Shape();
    virtual double area() const;
    std::int32_t sides = 0;
};

enum class Kind : std::uint8_t { point, line, polygon };

union Bits { std::uint32_t word; std::uint8_t bytes[4]; };

struct Holder {
    const Vec &ref;
    Vec *pointer;
    Kind kind;
    Bits bits;
    unsigned flag : 1;
    unsigned level : 3;
};
}
