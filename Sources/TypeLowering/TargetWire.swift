import BinaryInfo
import TypeLayout

/// The worker's message format for reading a target (a process or a core file) rather than
/// files: UTF-8 lines as in ``LoweringWire``, with a header of its own so that either side
/// refuses the other mode's messages.
///
/// One worker serves a whole session of questions: the client sends the preamble once, then
/// batch after batch of queries, each ended by `end`; the worker answers each batch, ending the
/// answer with `done`, and exits when its input ends. A worker that fails (`failed`), crashes or
/// hangs during a batch has answered none of that batch; the client starts another for the next.
///
/// Request (client → worker):
///
///     typeinfo-target 2
///     library /opt/swift/usr/lib/swift/linux/libswiftRemoteMirror.so
///     process 1234          |   core /path/to/core
///     image-path /dir       (any number: where libthread_db and the C library's files are searched)
///     image … / file … / mapping … / section … / executable …
///                           (the images the client matched, ``TargetImageMap``: the worker
///                            opens these files and reads no memory map)
///     open                  (the end of the preamble: the worker opens the target)
///
/// then any number of batches, each of queries and `end`:
///
///     name 0x7f…            (any number: a class metadata address to name)
///     fields 0x7f…          (a class metadata address: its own stored properties)
///     layout <mangling>     (a type's lowering and children: a struct's fields, a tuple's
///                            elements, an enum's cases with their payload types)
///     case <mangling> 0x7f… (which case the enum value of that type at the address holds)
///     arguments <mangling>  |  arguments 0x7f…
///                           (a type's generic arguments, the type by mangling or by its class
///                            metadata: swift_reflection_genericArgumentOfTypeRef)
///     generics              (every generic metadata record the runtime's caches hold, named)
///     task 0x7f…            (an async task: swift_reflection_asyncTaskInfo)
///     actor 0x7f…           (an actor: swift_reflection_actorInfo and its queue by nextJob)
///     threads 0x7f…         (the threads, with the thread-locals of the concurrency runtime
///                            in the image loaded there: libthread_db)
///     end
///
/// Reply (worker → client): once, after the preamble,
///
///     typeinfo-target 2
///     ready <swift images registered>     |   failed <failure>   (the target could not be opened)
///
/// then for each batch one record per query, flushed after each, and `done`:
///
///     name 0x7f… <mangling>               (`?` when the library cannot name it)
///     field 0x7f… <offset> <kind> <mangled type or ?> <name>
///     fields 0x7f… <count>                (after its `field` lines; `?` when unknown)
///     child <mangling> <offset> <kind> <mangled type or ?> <name>
///     layout <mangling> <kind> <size> <alignment> <stride> <count>   (after its `child` lines;
///                                         `layout <mangling> ?` when the library cannot lay it out)
///     case <mangling> 0x7f… <index> <name>   |   case <mangling> 0x7f… ?
///     arguments <type> <its mangling or ?> <count> <mangling or ?>…   |   arguments <type> ?
///                                         (the type as asked; `?` when the library has no
///                                         typeref for it)
///     generics <count> [0x7f…,0x7f…]      (after a `name` line for each; the addresses where the
///                                         walk of the runtime's pool stopped early, if it did)
///                                         |   generics off <reason>   (the runtime keeps no list)
///                                         |   generics ? <reason>     (it could not be read)
///     task 0x7f… <id> <runJob> <priority> <flags> <children> <frames>
///                                         (flags, children, frames: comma lists, `-` when empty)
///     actor 0x7f… <state> <priority> <flags> <jobs>
///     unread task|actor 0x7f… <error>     (the library's error for that object)
///     thread <id> <task> <executor>       (`?` for each value not known)
///     threads listed 0|1                  (after its `thread` lines; 1: the list was cut short)
///     threads unavailable <reason>
///     done                                (every query of the batch was answered)
///     failed <failure>                    (instead of `done`: the worker stops; the target
///                                         became unreadable, the library was refused, …)
///
/// A failure is typed (``TargetWorkerFailure``): `target-gone exited`, `image 0x7f… <why>`,
/// `library <why>`, `request <why>`, …
enum TargetWire {
    static let header = "typeinfo-target 2"
    /// The line that ends the preamble.
    static let openLine = "open"

    /// `0x…` in lowercase hex.
    static func hex(_ address: UInt64) -> String { "0x" + String(address, radix: 16) }

    /// Whether `text` can stand in a line as one mangling: a Swift mangling never holds a space.
    static func isMangling(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && !text.contains(" ") && !text.contains("\n")
    }

    /// The address of `0x…`, or nil.
    static func address(_ text: some StringProtocol) -> UInt64? {
        text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : nil
    }
}

/// What the client tells a worker once (the preamble), and the batches of questions it then
/// asks of the target.
struct TargetRequest: Sendable, Equatable {
    /// One question about the target.
    enum Query: Sendable, Equatable {
        /// The type name of the metadata at the address.
        case name(UInt64)
        /// The own stored properties of the class whose metadata is at the address.
        case fields(UInt64)
        /// A type's lowering and children, by its mangling (without `$s`).
        case layout(String)
        /// The case of the enum value of the mangled type at the address.
        case enumCase(String, UInt64)
        /// Every generic metadata record of the runtime's caches, each with its name.
        case generics
        /// The generic arguments of a type.
        case arguments(TypeSubject)
        /// The async task at the address.
        case task(UInt64)
        /// The actor at the address.
        case actor(UInt64)
        /// The threads, with the concurrency runtime of the image loaded at the address.
        case threads(UInt64)
    }

    /// The questions `queries` ask, in words: `5003 questions (tasks, actors)`.
    static func describe(_ queries: [Query]) -> String {
        var kinds: [String] = []
        for query in queries {
            let kind: String
            switch query {
            case .name: kind = "type names"
            case .fields: kind = "class fields"
            case .layout: kind = "type layouts"
            case .enumCase: kind = "enum cases"
            case .generics: kind = "the generic metadata list"
            case .arguments: kind = "generic arguments"
            case .task: kind = "tasks"
            case .actor: kind = "actors"
            case .threads: kind = "threads"
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        return "its \(queries.count) question\(queries.count == 1 ? "" : "s") (\(kinds.joined(separator: ", ")))"
    }

    var libraryPath: String
    var target: TargetSpecifier
    var imageSearchPaths: [String] = []
    /// The target's images, matched to their files by the client.
    var imageMap = TargetImageMap(images: [], executable: nil)

    /// The preamble as the worker reads it, through `open`.
    func encoded() throws(TypeLoweringError) -> String {
        var lines = [TargetWire.header, "library " + libraryPath]
        switch target {
        case .process(let id): lines.append("process \(id)")
        case .core(let path): lines.append("core " + path)
        }
        lines += imageSearchPaths.map { "image-path " + $0 }
        lines += imageMap.lines
        for line in lines where line.contains("\n") || line.utf8.count > LoweringWire.maximumLineLength {
            throw .protocolViolation(detail: "a path holds a newline or is too long to pass to the worker: \(line.prefix(80))")
        }
        return (lines + [TargetWire.openLine]).joined(separator: "\n") + "\n"
    }

    /// Parses a preamble (its lines through `open`), the image map checked as
    /// ``TargetImageMap/init(lines:)`` checks it.
    static func decode(lines: [String]) -> Result<TargetRequest, TypeLoweringError> {
        guard lines.first == TargetWire.header else {
            return .failure(.protocolViolation(detail: "request does not start with '\(TargetWire.header)'"))
        }
        var library: String?
        var target: TargetSpecifier?
        var request = TargetRequest(libraryPath: "", target: .process(0))
        var mapLines: [String] = []
        for (number, line) in lines.enumerated().dropFirst() {
            let (keyword, rest) = LoweringWire.split(line)
            switch keyword {
            case "library": library = rest
            case "process":
                guard let id = Int32(rest), id > 0 else { return .failure(.protocolViolation(detail: "line \(number + 1): no process id")) }
                target = .process(id)
            case "core": target = .core(path: rest)
            case "image-path": request.imageSearchPaths.append(rest)
            case _ where TargetImageMap.keywords.contains(keyword): mapLines.append(line)
            case TargetWire.openLine where rest.isEmpty && number == lines.count - 1: break
            default: return .failure(.protocolViolation(detail: "line \(number + 1): unknown preamble line '\(keyword.prefix(40))'"))
            }
        }
        guard let library, let target, lines.last == TargetWire.openLine else {
            return .failure(.protocolViolation(detail: "request lacks 'library', a target or 'open'"))
        }
        do {
            request.imageMap = try TargetImageMap(lines: mapLines)
        } catch {
            return .failure(.protocolViolation(detail: "\(error)"))
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

/// A type's lowering as the worker reports it.
public struct TargetTypeLayout: Sendable, Equatable {
    /// How the toolchain lays the type out.
    public var kind: LoweredKind
    public var size: Int
    public var alignment: Int
    public var stride: Int
    /// How many children (fields, elements, cases) it has.
    public var childCount: Int
}

/// How many generic metadata records a `generics` query named, and where the walk of the
/// runtime's metadata pool stopped early (empty: it reached the end of every pool).
struct GenericsListing: Sendable, Equatable {
    var count: Int
    var stops: [UInt64] = []
}

/// One reply record.
enum TargetReply: Sendable, Equatable {
    case ready(swiftImages: Int)
    /// The worker could not go on: nothing more of the batch is answered, and it exits.
    case failed(TargetWorkerFailure)
    case name(UInt64, mangling: String?)
    case field(UInt64, TargetFieldRecord)
    case fields(UInt64, count: Int?)
    /// A child of the mangled type (a field, tuple element or enum case).
    case child(String, TargetFieldRecord)
    /// The mangled type's lowering, nil when the library cannot lay it out.
    case layout(String, TargetTypeLayout?)
    /// The case index and name of the enum value at the address, nil when the library cannot tell.
    case enumCase(String, UInt64, index: Int?, name: String?)
    /// How many generic metadata records were named (a `name` reply each), or why none could be listed.
    case generics(Result<GenericsListing, TargetListingUnavailable>)
    /// A type's mangling and its generic arguments by mangling; nil when the library has no
    /// typeref for the type.
    case arguments(TypeSubject, LibraryGenericArguments?)
    /// What the library read of the task at the address.
    case task(UInt64, MirrorTaskInfo)
    /// What the library read of the actor at the address.
    case actor(UInt64, MirrorActorInfo)
    /// The library's error for the task (`isTask`) or actor at the address.
    case unread(isTask: Bool, UInt64, reason: String)
    /// One thread of the target.
    case thread(TargetThread)
    /// The end of the thread list (whether it was cut short), or nil and why there is none.
    case threads(truncated: Bool?, reason: String)
    /// Every query was answered: the last line of a complete reply.
    case done

    /// The reply line, without its newline.
    var encoded: String {
        switch self {
        case .ready(let count): return "ready \(count)"
        case .failed(let failure): return "failed " + failure.encoded
        case .name(let address, let mangling): return "name \(TargetWire.hex(address)) \(mangling ?? "?")"
        case .field(let address, let field):
            let type = field.mangledType.flatMap { $0.isEmpty || $0.contains(" ") ? nil : $0 } ?? "?"
            return "field \(TargetWire.hex(address)) \(field.offset) \(field.kind?.wireName ?? "?") \(type) \(field.name)"
        case .fields(let address, let count): return "fields \(TargetWire.hex(address)) \(count.map(String.init) ?? "?")"
        case .child(let mangling, let field):
            let type = field.mangledType.flatMap { TargetWire.isMangling($0) ? $0 : nil } ?? "?"
            return "child \(mangling) \(field.offset) \(field.kind?.wireName ?? "?") \(type) \(field.name)"
        case .layout(let mangling, let layout?):
            return "layout \(mangling) \(layout.kind.wireName) \(layout.size) \(layout.alignment) \(layout.stride) \(layout.childCount)"
        case .layout(let mangling, nil): return "layout \(mangling) ?"
        case .enumCase(let mangling, let address, let index?, let name?):
            return "case \(mangling) \(TargetWire.hex(address)) \(index) \(name)"
        case .enumCase(let mangling, let address, _, _): return "case \(mangling) \(TargetWire.hex(address)) ?"
        case .generics(.success(let listing)):
            return "generics \(listing.count)"
                + (listing.stops.isEmpty ? "" : " " + listing.stops.map(TargetWire.hex).joined(separator: ","))
        case .generics(.failure(let unavailable)):
            return "generics " + (unavailable.runtimeKeepsNoList ? "off " : "? ") + String(unavailable.reason.map { $0 == "\n" ? " " : $0 })
        case .task(let address, let info): return ConcurrencyWire.encode(task: address, info)
        case .actor(let address, let info): return ConcurrencyWire.encode(actor: address, info)
        case .unread(let isTask, let address, let reason):
            return "unread \(isTask ? "task" : "actor") \(TargetWire.hex(address)) " + String(reason.map { $0 == "\n" ? " " : $0 })
        case .thread(let thread):
            return "thread \(thread.threadID.map(String.init) ?? "?") \(thread.currentTask.map(TargetWire.hex) ?? "?") "
                + (thread.executorIdentity.map(TargetWire.hex) ?? "?")
        case .threads(let truncated?, _): return "threads listed \(truncated ? 1 : 0)"
        case .threads(nil, let reason): return "threads unavailable " + String(reason.map { $0 == "\n" ? " " : $0 })
        case .arguments(let subject, let found?):
            let manglings = ([found.type] + found.arguments).map { $0.flatMap { TargetWire.isMangling($0) ? $0 : nil } ?? "?" }
            return (["arguments", subject.wireText, manglings[0], String(found.arguments.count)] + manglings.dropFirst())
                .joined(separator: " ")
        case .arguments(let subject, nil): return "arguments \(subject.wireText) ?"
        case .done: return "done"
        }
    }

    /// Parses a reply line.
    static func decode(_ line: String) throws(TypeLoweringError) -> TargetReply {
        let (keyword, rest) = LoweringWire.split(line)
        if keyword == "task" || keyword == "actor" || keyword == "unread" {
            // Many thousands of these: parsed as bytes, without splitting the line first.
            guard let reply = ConcurrencyWire.decode(keyword: keyword, rest) else {
                throw .protocolViolation(detail: "malformed target reply '\(line.prefix(80))'")
            }
            return reply
        }
        let splits = ["field": 4, "child": 4, "layout": 5, "case": 3, "thread": 2][keyword] ?? 1
        let parts = rest.split(separator: " ", maxSplits: splits, omittingEmptySubsequences: false)
        switch keyword {
        case "generics":
            if rest.hasPrefix("? ") { return .generics(.failure(TargetListingUnavailable(reason: String(rest.dropFirst(2))))) }
            if rest.hasPrefix("off ") {
                return .generics(.failure(TargetListingUnavailable(reason: String(rest.dropFirst(4)), runtimeKeepsNoList: true)))
            }
            let fields = rest.split(separator: " ")
            if fields.count <= 2, let count = fields.first.flatMap({ Int($0) }), count >= 0 {
                let stops = fields.count == 2 ? fields[1].split(separator: ",").map { TargetWire.address(String($0)) } : []
                if stops.allSatisfy({ $0 != nil }), fields.count == 1 || !stops.isEmpty {
                    return .generics(.success(GenericsListing(count: count, stops: stops.compactMap { $0 })))
                }
            }
        case "ready":
            if let count = Int(rest) { return .ready(swiftImages: count) }
        case "thread" where parts.count == 3:
            let id = parts[0] == "?" ? nil : Int32(parts[0])
            let task = parts[1] == "?" ? nil : TargetWire.address(parts[1])
            let executor = parts[2] == "?" ? nil : TargetWire.address(parts[2])
            if (id != nil) == (parts[0] != "?"), (task != nil) == (parts[1] != "?"), (executor != nil) == (parts[2] != "?") {
                return .thread(TargetThread(threadID: id, currentTask: task, executorIdentity: executor))
            }
        case "threads" where parts.count == 2:
            if parts[0] == "listed", parts[1] == "0" || parts[1] == "1" { return .threads(truncated: parts[1] == "1", reason: "") }
            if parts[0] == "unavailable" { return .threads(truncated: nil, reason: String(parts[1])) }
        case "failed":
            if let failure = TargetWorkerFailure(encoded: rest) { return .failed(failure) }
        case "done" where rest.isEmpty:
            return .done
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
        case "child" where parts.count == 5:
            if let offset = Int(parts[1]), offset >= 0 {
                return .child(
                    String(parts[0]),
                    TargetFieldRecord(
                        offset: offset, kind: LoweredKind(wireName: String(parts[2])),
                        mangledType: parts[3] == "?" ? nil : String(parts[3]), name: String(parts[4])))
            }
        case "layout" where parts.count == 2 && parts[1] == "?":
            return .layout(String(parts[0]), nil)
        case "layout" where parts.count == 6:
            if let kind = LoweredKind(wireName: String(parts[1])), let size = Int(parts[2]), let alignment = Int(parts[3]),
                let stride = Int(parts[4]), let count = Int(parts[5]), size >= 0, alignment > 0, stride >= 0, count >= 0
            {
                return .layout(
                    String(parts[0]), TargetTypeLayout(kind: kind, size: size, alignment: alignment, stride: stride, childCount: count))
            }
        case "arguments":
            if let reply = TypeSubject.decodeArguments(rest) { return reply }
        case "case" where parts.count == 3 && parts[2] == "?":
            if let address = TargetWire.address(parts[1]) { return .enumCase(String(parts[0]), address, index: nil, name: nil) }
        case "case" where parts.count == 4:
            if let address = TargetWire.address(parts[1]), let index = Int(parts[2]), index >= 0 {
                return .enumCase(String(parts[0]), address, index: index, name: String(parts[3]))
            }
        default: break
        }
        throw .protocolViolation(detail: "malformed target reply '\(line.prefix(80))'")
    }
}
