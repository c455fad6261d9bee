import BinaryInfo

/// The worker's message format for reading a target (a process or a core file) rather than
/// files: UTF-8 lines as in ``LoweringWire``, with a header of its own so that either side
/// refuses the other mode's messages.
///
/// Request (client → worker):
///
///     typeinfo-target 1
///     library /opt/swift/usr/lib/swift/linux/libswiftRemoteMirror.so
///     process 1234          |   core /path/to/core
///     image-path /dir       (any number: where moved image files are searched)
///     name 0x7f…            (any number: a class metadata address to name)
///     fields 0x7f…          (a class metadata address: its own stored properties)
///     end
///
/// Reply (worker → client), one record per query, flushed after each:
///
///     typeinfo-target 1
///     ready <swift images registered>     |   failed <error>   (the target could not be opened)
///     name 0x7f… <mangling>               (`?` when the library cannot name it)
///     field 0x7f… <offset> <kind> <mangled type or ?> <name>
///     fields 0x7f… <count>                (after its `field` lines; `?` when unknown)
///     failed <error>                      (the target became unreadable: the process exited)
enum TargetWire {
    static let header = "typeinfo-target 1"

    /// `0x…` in lowercase hex.
    static func hex(_ address: UInt64) -> String { "0x" + String(address, radix: 16) }

    /// The address of `0x…`, or nil.
    static func address(_ text: some StringProtocol) -> UInt64? {
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : nil
    }
}

/// What the client asks of a target.
struct TargetRequest: Sendable, Equatable {
    /// One question about the target.
    enum Query: Sendable, Equatable {
        /// The type name of the metadata at the address.
        case name(UInt64)
        /// The own stored properties of the class whose metadata is at the address.
        case fields(UInt64)
    }

    var libraryPath: String
    var target: TargetSpecifier
    var imageSearchPaths: [String] = []
    var queries: [Query] = []

    /// The request as the worker reads it.
    func encoded() throws(TypeLoweringError) -> String {
        var lines = [TargetWire.header, "library " + libraryPath]
        switch target {
        case .process(let id): lines.append("process \(id)")
        case .core(let path): lines.append("core " + path)
        }
        lines += imageSearchPaths.map { "image-path " + $0 }
        for line in lines where line.contains("\n") || line.utf8.count > LoweringWire.maximumLineLength {
            throw .protocolViolation(detail: "a path holds a newline or is too long to pass to the worker: \(line.prefix(80))")
        }
        for query in queries {
            switch query {
            case .name(let address): lines.append("name " + TargetWire.hex(address))
            case .fields(let address): lines.append("fields " + TargetWire.hex(address))
            }
        }
        return (lines + ["end"]).joined(separator: "\n") + "\n"
    }

    /// Parses a request.
    static func decode(lines: [String]) -> Result<TargetRequest, TypeLoweringError> {
        guard lines.first == TargetWire.header else {
            return .failure(.protocolViolation(detail: "request does not start with '\(TargetWire.header)'"))
        }
        var library: String?
        var target: TargetSpecifier?
        var request = TargetRequest(libraryPath: "", target: .process(0))
        for (number, line) in lines.enumerated().dropFirst() {
            let (keyword, rest) = LoweringWire.split(line)
            switch keyword {
            case "library": library = rest
            case "process":
                guard let id = Int32(rest) else { return .failure(.protocolViolation(detail: "line \(number + 1): no process id")) }
                target = .process(id)
            case "core": target = .core(path: rest)
            case "image-path": request.imageSearchPaths.append(rest)
            case "name", "fields":
                guard let address = TargetWire.address(rest) else {
                    return .failure(.protocolViolation(detail: "line \(number + 1): '\(rest.prefix(40))' is not an address"))
                }
                request.queries.append(keyword == "name" ? .name(address) : .fields(address))
            case "end": break
            default: return .failure(.protocolViolation(detail: "line \(number + 1): unknown request '\(keyword.prefix(40))'"))
            }
        }
        guard let library, let target, lines.last == "end" else {
            return .failure(.protocolViolation(detail: "request lacks 'library', a target or 'end'"))
        }
        request.libraryPath = library
        request.target = target
        return .success(request)
    }
}

/// One stored property of a class, as the worker reports it.
struct TargetFieldRecord: Sendable, Equatable {
    var offset: Int
    var kind: LoweredKind?
    /// The field's type, mangled without `$s`.
    var mangledType: String?
    var name: String
}

/// One reply record.
enum TargetReply: Sendable, Equatable {
    case ready(swiftImages: Int)
    case failed(String)
    case name(UInt64, mangling: String?)
    case field(UInt64, TargetFieldRecord)
    case fields(UInt64, count: Int?)

    /// The reply line, without its newline.
    var encoded: String {
        switch self {
        case .ready(let count): return "ready \(count)"
        case .failed(let reason): return "failed " + String(reason.map { $0 == "\n" ? " " : $0 })
        case .name(let address, let mangling): return "name \(TargetWire.hex(address)) \(mangling ?? "?")"
        case .field(let address, let field):
            let type = field.mangledType.flatMap { $0.isEmpty || $0.contains(" ") ? nil : $0 } ?? "?"
            return "field \(TargetWire.hex(address)) \(field.offset) \(field.kind?.wireName ?? "?") \(type) \(field.name)"
        case .fields(let address, let count): return "fields \(TargetWire.hex(address)) \(count.map(String.init) ?? "?")"
        }
    }

    /// Parses a reply line.
    static func decode(_ line: String) throws(TypeLoweringError) -> TargetReply {
        let (keyword, rest) = LoweringWire.split(line)
        let parts = rest.split(separator: " ", maxSplits: keyword == "field" ? 4 : 1, omittingEmptySubsequences: false)
        switch keyword {
        case "ready":
            if let count = Int(rest) { return .ready(swiftImages: count) }
        case "failed":
            return .failed(rest)
        case "name" where parts.count == 2:
            if let address = TargetWire.address(parts[0]) { return .name(address, mangling: parts[1] == "?" ? nil : String(parts[1])) }
        case "fields" where parts.count == 2:
            if let address = TargetWire.address(parts[0]) { return .fields(address, count: Int(parts[1])) }
        case "field" where parts.count == 5:
            if let address = TargetWire.address(parts[0]), let offset = Int(parts[1]), offset >= 0 {
                return .field(
                    address,
                    TargetFieldRecord(
                        offset: offset, kind: LoweredKind(wireName: String(parts[2])),
                        mangledType: parts[3] == "?" ? nil : String(parts[3]),
                        name: String(parts[4])))
            }
        default: break
        }
        throw .protocolViolation(detail: "malformed target reply '\(line.prefix(80))'")
    }
}
