import TypeLayout

/// The worker's message format: UTF-8 lines, one record per line, fields separated by single
/// spaces (the last field of a line may itself hold spaces: a path or a field name never holds a
/// newline, which ``LoweringRequest/encoded()`` checks). The first line names the format and its
/// version, so a worker from another build is refused rather than misread.
///
/// Request (client → worker):
///
///     typeinfo-lowering 4
///     library /opt/swift/usr/lib/swift/linux/libswiftRemoteMirror.so
///     image /path/to/the/file            (the file being read, first)
///     image /path/to/a/dependency        (then its dependencies)
///     prepare                            (the preamble is complete: the worker lays the images
///                                         out now, while the client still reads the file;
///                                         `prepare whole-file`: most of the file's types follow,
///                                         so it also has the library index every image's records)
///     option type-names                  (optional: name each child's type in the reply)
///     type 2nc6PacketV                   (mangled names without `$s`, any number)
///     size 2nc7WrapperVySiG              (only size, alignment and stride wanted: a field's type)
///     class 2nc4NodeC                    (a class's own stored properties, from its field record;
///                                         answered as `@2nc4NodeC`: see ``instanceKey(_:)``)
///     cfields So8_IO_FILEV               (an imported C struct's field types, from its field record;
///                                         answered as `%So8_IO_FILEV`: ``importedFieldsKey(_:)``)
///     end
///
/// Reply (worker → client), flushed after every type so a crash names the type it happened on:
///
///     typeinfo-lowering 4
///     note <text>                        (any number, before the first type)
///     ready
///     begin <mangling>
///     info <kind> <size> <alignment> <stride> <children>   |   unknown <reason>
///     child <offset> <kind> <size> <alignment> <stride> <mangled type> <name>   (`?` when unknown)
///     extra <extra inhabitants>          (optional, after the children)
///     tagbits <hex mask, memory order>   (optional: a multi-payload enum's tag bits in its payload)
///     end <mangling>
enum LoweringWire {
    static let header = "typeinfo-lowering 4"
    /// The longest line either side accepts.
    static let maximumLineLength = 1 << 16
    /// The most children one type may report (real types have a few hundred at most).
    static let maximumChildren = 1 << 14

    /// The key under which a class instance request (`class` line) is sent and answered: the
    /// class's mangling after `@`, a character no mangling holds, so it never meets the same
    /// class asked for as a field type (a reference).
    static func instanceKey(_ mangling: String) -> String { "@" + mangling }

    /// The class mangling of an ``instanceKey(_:)``, or nil for an ordinary mangling.
    static func instanceMangling(_ key: String) -> String? {
        key.hasPrefix("@") && key.count > 1 ? String(key.dropFirst()) : nil
    }

    /// The key of an imported C struct's field types request (`cfields` line): `%` and the mangling.
    static func importedFieldsKey(_ mangling: String) -> String { "%" + mangling }

    /// The struct mangling of an ``importedFieldsKey(_:)``, or nil.
    static func importedFieldsMangling(_ key: String) -> String? {
        key.hasPrefix("%") && key.count > 1 ? String(key.dropFirst()) : nil
    }
}

/// What the client asks the worker to do.
struct LoweringRequest: Sendable, Equatable {
    var libraryPath: String
    var imagePaths: [String]
    var manglings: [String]
    /// Manglings among ``manglings`` whose size, alignment and stride are all that is wanted
    /// (`size` lines): no children, extra inhabitants or tag bits, which cost time.
    var sizeOnly: Set<String> = []
    /// Whether the reply names each child's type (`option type-names`).
    var includeTypeNames = false
    /// Whether most of the file's types will be asked (`prepare whole-file`): the worker then does
    /// the work their lowering starts with while it waits for them (``LoweringSession/prepareWholeFile()``).
    var preparesWholeFile = false

    /// The request as the worker reads it.
    func encoded() throws(TypeLoweringError) -> String {
        try encodedPreamble() + encodedTypes()
    }

    /// The header, library and image lines, and `prepare`: what the worker needs to lay the
    /// images out (it starts on `prepare`, before any type line arrives).
    func encodedPreamble() throws(TypeLoweringError) -> String {
        var text = LoweringWire.header + "\nlibrary " + libraryPath + "\n"
        for path in [libraryPath] + imagePaths where path.contains("\n") || path.utf8.count > LoweringWire.maximumLineLength - 16 {
            throw .imageUnusable(path: path, reason: "the path holds a newline or is too long to pass to the worker")
        }
        for path in imagePaths { text += "image " + path + "\n" }
        return text + (preparesWholeFile ? "prepare whole-file\n" : "prepare\n")
    }

    /// The type lines and the final `end`.
    func encodedTypes() -> String {
        var text = includeTypeNames ? "option type-names\n" : ""
        // Bytes, not String searches: this runs over every type of a reading.
        for mangling in manglings
        where mangling.utf8.count < LoweringWire.maximumLineLength - 16
            && !mangling.utf8.contains(where: { $0 == 0x0A || $0 == 0x20 })
        {
            if let instance = LoweringWire.instanceMangling(mangling) {
                text += "class " + instance + "\n"
            } else if let imported = LoweringWire.importedFieldsMangling(mangling) {
                text += "cfields " + imported + "\n"
            } else {
                text += (sizeOnly.contains(mangling) ? "size " : "type ") + mangling + "\n"
            }
        }
        return text + "end\n"
    }

    /// Parses a request; `nil` with a reason for anything malformed.
    static func decode(lines: [String]) -> Result<LoweringRequest, TypeLoweringError> {
        guard lines.first == LoweringWire.header else {
            return .failure(.protocolViolation(detail: "request does not start with '\(LoweringWire.header)'"))
        }
        var request = LoweringRequest(libraryPath: "", imagePaths: [], manglings: [])
        var ended = false
        for (number, line) in lines.enumerated().dropFirst() {
            guard !ended else { return .failure(.protocolViolation(detail: "line \(number + 1) after 'end'")) }
            let (keyword, rest) = LoweringWire.split(line)
            switch keyword {
            case "library": request.libraryPath = rest
            case "image": request.imagePaths.append(rest)
            case "type": request.manglings.append(rest)
            case "size":
                request.manglings.append(rest)
                request.sizeOnly.insert(rest)
            case "class" where !rest.isEmpty: request.manglings.append(LoweringWire.instanceKey(rest))
            case "cfields" where !rest.isEmpty: request.manglings.append(LoweringWire.importedFieldsKey(rest))
            case "option" where rest == "type-names": request.includeTypeNames = true
            case "prepare" where rest.isEmpty: break
            case "prepare" where rest == "whole-file": request.preparesWholeFile = true
            case "end": ended = true
            default: return .failure(.protocolViolation(detail: "line \(number + 1): unknown request '\(keyword)'"))
            }
        }
        guard ended, !request.libraryPath.isEmpty, !request.imagePaths.isEmpty else {
            return .failure(.protocolViolation(detail: "request lacks 'library', 'image' or 'end'"))
        }
        return .success(request)
    }
}

/// One type as the worker lowered it.
struct LoweredType: Sendable, Equatable {
    /// One field, tuple element or enum case.
    struct Child: Sendable, Equatable {
        var name: String
        var offset: Int
        var kind: LoweredKind?
        var size: Int?
        var alignment: Int?
        var stride: Int?
        /// The child's type, mangled without `$s`.
        var mangledType: String?
    }

    var mangling: String
    var kind: LoweredKind?
    var size: Int?
    var alignment: Int?
    var stride: Int?
    var children: [Child] = []
    /// Why nothing is known, when ``kind`` is nil.
    var unknownReason: String?
    /// The type's extra inhabitants, from the library's TypeInfo dump.
    var extraInhabitants: Int?
    /// For a multi-payload enum: the payload bits that hold the case tag, in memory order.
    var tagSpareBits: [UInt8]?

    /// The reply lines for this type.
    func encoded() -> String {
        var text = "begin \(mangling)\n"
        if let kind, let size, let alignment, let stride {
            text += "info \(kind.wireName) \(size) \(alignment) \(stride) \(children.count)\n"
            for child in children {
                func number(_ value: Int?) -> String { value.map(String.init) ?? "?" }
                let type = child.mangledType.flatMap { $0.isEmpty || $0.contains(" ") ? nil : $0 } ?? "?"
                text +=
                    "child \(child.offset) \(child.kind?.wireName ?? "?") \(number(child.size)) \(number(child.alignment)) \(number(child.stride)) \(type) \(child.name)\n"
            }
            if let extraInhabitants { text += "extra \(extraInhabitants)\n" }
            if let tagSpareBits, !tagSpareBits.isEmpty { text += "tagbits \(SpareBitMask.hex(tagSpareBits))\n" }
        } else {
            text += "unknown \(unknownReason ?? "the library knows nothing about it")\n"
        }
        return text + "end \(mangling)\n"
    }
}

extension LoweringWire {
    /// Splits a line at its first space.
    static func split(_ line: String) -> (keyword: String, rest: String) {
        guard let space = line.firstIndex(of: " ") else { return (line, "") }
        return (String(line[..<space]), String(line[line.index(after: space)...]))
    }

    /// Incremental reply parser: feed lines, collect finished types.
    struct ReplyParser {
        private(set) var sawHeader = false
        private(set) var ready = false
        private(set) var notes: [String] = []
        private(set) var finished: [LoweredType] = []
        /// The type begun and not yet ended (on a crash: the culprit).
        private(set) var current: LoweredType?

        mutating func consume(_ line: String) throws(TypeLoweringError) {
            guard line.utf8.count <= LoweringWire.maximumLineLength else {
                throw .protocolViolation(detail: "reply line longer than \(LoweringWire.maximumLineLength) bytes")
            }
            guard sawHeader else {
                guard line == LoweringWire.header else {
                    throw .protocolViolation(detail: "worker replied '\(line.prefix(80))', not '\(LoweringWire.header)'")
                }
                sawHeader = true
                return
            }
            let (keyword, rest) = LoweringWire.split(line)
            switch keyword {
            case "note": notes.append(rest)
            case "ready": ready = true
            case "begin":
                guard current == nil else { throw .protocolViolation(detail: "'begin \(rest)' inside another type") }
                current = LoweredType(mangling: rest)
            case "info":
                let parts = rest.split(separator: " ").map(String.init)
                guard current != nil, parts.count == 5, let kind = LoweredKind(wireName: parts[0]), let size = Int(parts[1]),
                    let alignment = Int(parts[2]), let stride = Int(parts[3]),
                    size >= 0, alignment >= 1, stride >= 0, Int(parts[4]) != nil
                else { throw .protocolViolation(detail: "malformed 'info \(rest.prefix(80))'") }
                current?.kind = kind
                current?.size = size
                current?.alignment = alignment
                current?.stride = stride
            case "child":
                // Split on bytes (six fields, then the name, which may hold spaces): the reply has
                // a line per field of every type.
                let parts = rest.utf8.split(separator: 0x20, maxSplits: 6, omittingEmptySubsequences: false)
                func text(_ index: Int) -> String { String(decoding: parts[index], as: UTF8.self) }
                func number(_ index: Int) -> Int? {
                    let digits = parts[index]
                    guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
                    return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
                }
                func isUnknown(_ index: Int) -> Bool { parts[index].elementsEqual([UInt8(ascii: "?")]) }
                let kind = isUnknown(1) ? nil : LoweredKind(wireName: text(1))
                guard current != nil, parts.count == 7, let offset = number(0), isUnknown(1) || kind != nil,
                    (current?.children.count ?? 0) < LoweringWire.maximumChildren
                else { throw .protocolViolation(detail: "malformed 'child \(rest.prefix(80))'") }
                current?.children.append(
                    LoweredType.Child(
                        name: text(6), offset: offset, kind: kind,
                        size: number(2), alignment: number(3), stride: number(4),
                        mangledType: isUnknown(5) ? nil : text(5)
                    ))
            case "extra":
                guard current?.kind != nil, let count = Int(rest), count >= 0, count <= Int(UInt32.max) else {
                    throw .protocolViolation(detail: "malformed 'extra \(rest.prefix(80))'")
                }
                current?.extraInhabitants = count
            case "tagbits":
                guard current?.kind != nil, let mask = SpareBitMask.bytes(hex: rest), !mask.isEmpty, mask.count <= (current?.size ?? 0)
                else {
                    throw .protocolViolation(detail: "malformed 'tagbits \(rest.prefix(80))'")
                }
                current?.tagSpareBits = mask
            case "unknown":
                guard current != nil else { throw .protocolViolation(detail: "'unknown' outside a type") }
                current?.unknownReason = rest
            case "end":
                guard let done = current, done.mangling == rest else {
                    throw .protocolViolation(detail: "'end \(rest.prefix(80))' without its 'begin'")
                }
                finished.append(done)
                current = nil
            default:
                throw .protocolViolation(detail: "unknown reply '\(keyword.prefix(40))'")
            }
        }
    }
}
