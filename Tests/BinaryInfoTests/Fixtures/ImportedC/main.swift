// Prints, as JSON, what this program knows about the imported C types of Tokens.h: each type's
// layout as the compiler lays it out (MemoryLayout, from Clang), the metadata the runtime gives
// it, and each stored field's offset (MemoryLayout.offset(of:)). Built with -O.
import Tokens

var types: [String] = []
var fields: [String] = []

func json(_ string: String) -> String { "\"" + string + "\"" }

// Names are passed in: the runtime names every type of a shared identity after the first one.
func describe<T>(_ name: String, _ type: T.Type) {
    let metadata = UInt(bitPattern: unsafeBitCast(type, to: UnsafeRawPointer.self))
    let parts = [
        "\"name\": " + json("__C." + name),
        "\"size\": \(MemoryLayout<T>.size)",
        "\"alignment\": \(MemoryLayout<T>.alignment)",
        "\"stride\": \(MemoryLayout<T>.stride)",
        "\"metadata\": \(metadata)",
    ]
    types.append("{" + parts.joined(separator: ", ") + "}")
}

func field<T, F>(_ container: String, _ name: String, _ path: KeyPath<T, F>) {
    let offset = MemoryLayout<T>.offset(of: path) ?? -1
    let parts = [
        "\"type\": " + json("__C." + container), "\"name\": " + json(name), "\"offset\": \(offset)",
        "\"size\": \(MemoryLayout<F>.size)",
    ]
    fields.append("{" + parts.joined(separator: ", ") + "}")
}

describe("token_s", token_s.self)
describe("token_s.__Unnamed_union_data", token_s.__Unnamed_union_data.self)
describe("token_s.__Unnamed_union_data.__Unnamed_struct_scalar", token_s.__Unnamed_union_data.__Unnamed_struct_scalar.self)
describe("token_s.__Unnamed_struct_start_mark", token_s.__Unnamed_struct_start_mark.self)
describe("event_s", event_s.self)
describe("event_s.__Unnamed_union_data", event_s.__Unnamed_union_data.self)
describe("event_s.__Unnamed_union_data.__Unnamed_struct_scalar", event_s.__Unnamed_union_data.__Unnamed_struct_scalar.self)
describe("node_s", node_s.self)
describe("node_s.__Unnamed_union_data", node_s.__Unnamed_union_data.self)
describe("node_s.__Unnamed_union_data.__Unnamed_struct_scalar", node_s.__Unnamed_union_data.__Unnamed_struct_scalar.self)
describe("node_s.__Unnamed_union_data.__Unnamed_struct_sequence", node_s.__Unnamed_union_data.__Unnamed_struct_sequence.self)
describe("document_s", document_s.self)
describe("document_s.__Unnamed_struct_nodes", document_s.__Unnamed_struct_nodes.self)
describe("document_s.__Unnamed_struct_tag_directives", document_s.__Unnamed_struct_tag_directives.self)
describe("document_s.__Unnamed_struct_buffer", document_s.__Unnamed_struct_buffer.self)
describe("parser_s", parser_s.self)
describe("parser_s.__Unnamed_struct_tag_directives", parser_s.__Unnamed_struct_tag_directives.self)
describe("parser_s.__Unnamed_struct_buffer", parser_s.__Unnamed_struct_buffer.self)
describe("parser_s.__Unnamed_struct_marks", parser_s.__Unnamed_struct_marks.self)

field("token_s", "type", \token_s.type)
field("token_s", "data", \token_s.data)
field("token_s", "start_mark", \token_s.start_mark)
field("event_s", "type", \event_s.type)
field("event_s", "data", \event_s.data)
field("node_s", "type", \node_s.type)
field("node_s", "tag", \node_s.tag)
field("node_s", "data", \node_s.data)
field("document_s", "nodes", \document_s.nodes)
field("document_s", "tag_directives", \document_s.tag_directives)
field("document_s", "buffer", \document_s.buffer)
field("document_s", "start_implicit", \document_s.start_implicit)
field("parser_s", "error", \parser_s.error)
field("parser_s", "tag_directives", \parser_s.tag_directives)
field("parser_s", "buffer", \parser_s.buffer)
field("parser_s", "marks", \parser_s.marks)
field("document_s.__Unnamed_struct_tag_directives", "start", \document_s.__Unnamed_struct_tag_directives.start)
field("document_s.__Unnamed_struct_tag_directives", "end", \document_s.__Unnamed_struct_tag_directives.end)
field("parser_s.__Unnamed_struct_tag_directives", "top", \parser_s.__Unnamed_struct_tag_directives.top)
field("parser_s.__Unnamed_struct_marks", "top", \parser_s.__Unnamed_struct_marks.top)

print("{\"types\": [" + types.joined(separator: ", ") + "], \"fields\": [" + fields.joined(separator: ", ") + "]}")
