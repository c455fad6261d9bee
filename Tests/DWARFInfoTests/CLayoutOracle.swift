import TypeLayout

/// The compiler's own view of the C fixture's layouts, printed by a C program generated from
/// the reader's findings and compiled against the same header: `sizeof`, `_Alignof`,
/// `offsetof`, member `sizeof`, bitfield positions (found by setting the field in a zeroed
/// object and scanning the bytes) and whether the reader's spelling of each member's type
/// names the member's actual type (`__builtin_types_compatible_p`).
struct CLayoutOracle {
    struct TypeFacts: Equatable { var size: Int; var alignment: Int }
    struct FieldFacts: Equatable { var offset: Int; var size: Int?; var alignment: Int? }
    struct BitfieldFacts: Equatable { var firstBit: Int; var width: Int }

    var types: [String: TypeFacts] = [:]
    var fields: [String: [String: FieldFacts]] = [:]
    var bitfields: [String: [String: BitfieldFacts]] = [:]
    var typeNameMatches: [String: [String: Bool]] = [:]
    var enumerators: [String: Int] = [:]

    /// Generates the oracle program for `layouts`, in C (`header` is a C header) or C++.
    static func program(for layouts: [TypeLayout], header: String, cPlusPlus: Bool = false) -> String {
        // The fixture first: it may define feature macros (`_GNU_SOURCE`) that change the others.
        var lines = [
            "#include \"\(header)\"", "#include <stdio.h>", "#include <stddef.h>", "#include <string.h>",
        ]
        if cPlusPlus { lines.append("#include <type_traits>") }
        lines += [
            "static void bits(const char *type, const char *field, const unsigned char *p, size_t n) {",
            "    int first = -1, last = -1;",
            "    for (size_t i = 0; i < n * 8; i++) if (p[i / 8] & (1u << (i % 8))) { if (first < 0) first = (int)i; last = (int)i; }",
            "    printf(\"bitfield|%s|%s|%d|%d\\n\", type, field, first, last - first + 1);",
            "}",
            "int main(void) {",
        ]
        let alignof = cPlusPlus ? "alignof" : "_Alignof"
        for layout in layouts {
            let type = layout.name
            lines.append("    printf(\"type|%s|%zu|%zu\\n\", \"\(type)\", sizeof(\(type)), \(alignof)(\(type)));")
            for enumCase in layout.cases {
                let value = cPlusPlus ? "static_cast<int>(\(type)::\(enumCase.name))" : "(int)\(enumCase.name)"
                lines.append("    printf(\"case|%s|%d\\n\", \"\(enumCase.name)\", \(value));")
            }
            for field in layout.fields {
                let name = field.name
                // The virtual table pointer has no name a program can use.
                if name.hasPrefix("_vptr") { continue }
                if field.bitWidth != nil {
                    // A zeroed buffer rather than an object: C++ types with reference members
                    // cannot be default-constructed.
                    lines.append(
                        "    { static unsigned char buffer[sizeof(\(type))] __attribute__((aligned(16))); memset(buffer, 0, sizeof buffer); ((\(type) *)buffer)->\(name) = -1; bits(\"\(type)\", \"\(name)\", buffer, sizeof buffer); }"
                    )
                    continue
                }
                let member = "((\(type) *)0)->\(name)"
                // A flexible array member has no size, and the size of a reference is the size
                // of what it refers to rather than of its storage.
                let size = field.type.hasSuffix("[]") || field.type.hasSuffix("&") ? "(size_t)-1" : "sizeof(\(member))"
                let alignment = field.type.hasSuffix("&") ? "(size_t)-1" : "__alignof__(\(member))"
                lines.append(
                    "    printf(\"field|%s|%s|%zu|%zu|%zu\\n\", \"\(type)\", \"\(name)\", offsetof(\(type), \(name)), \(size), \(alignment));"
                )
                guard !field.type.contains("{") else { continue }
                let same =
                    cPlusPlus
                    ? "std::is_same<decltype(\(type)::\(name)), \(field.type)>::value"
                    : "__builtin_types_compatible_p(__typeof__(\(member)), \(field.type))"
                lines.append("    printf(\"typename|%s|%s|%d\\n\", \"\(type)\", \"\(name)\", (int)(\(same)));")
            }
        }
        lines.append("    return 0;")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Parses the program's output.
    init(output: String) throws {
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            func number(_ index: Int) throws -> Int {
                guard index < parts.count, let value = Int(parts[index]) else {
                    throw FixtureError(description: "oracle line not understood: \(line)")
                }
                return value
            }
            switch parts.first {
            case "type":
                types[parts[1]] = TypeFacts(size: try number(2), alignment: try number(3))
            case "field":
                let size = parts[4] == String(UInt.max) ? nil : try number(4)
                let alignment = parts[5] == String(UInt.max) ? nil : try number(5)
                fields[parts[1], default: [:]][parts[2]] = FieldFacts(offset: try number(3), size: size, alignment: alignment)
            case "bitfield":
                bitfields[parts[1], default: [:]][parts[2]] = BitfieldFacts(firstBit: try number(3), width: try number(4))
            case "typename":
                typeNameMatches[parts[1], default: [:]][parts[2]] = try number(3) == 1
            case "case":
                enumerators[parts[1]] = try number(2)
            default:
                throw FixtureError(description: "oracle line not understood: \(line)")
            }
        }
    }
}
