import BinaryInfo
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemPackage
import TypeLayout

/// The body of the `typeinfo-lowering` executable: reads one request on standard input, lays the
/// images out in its own memory, and answers type by type on standard output.
///
/// It runs in a process of its own because libswiftRemoteMirror aborts its process (demangler
/// assertions, SIGILL) on some corrupt files: a crash here costs one type, not the reading.
public enum LoweringWorker {

    /// Runs the worker; returns the process exit status.
    public static func run() -> Int32 {
        LoweringTrace.mark("worker", "main-entered")
        // The images are laid out as soon as the preamble (library and image lines) is complete,
        // marked by `prepare`, before the type lines arrive: the client sends the preamble first
        // and the types once it has read the file's static metadata, so the two overlap. (A
        // request without `prepare` starts at its first type line.)
        var lines: [String] = []
        var session: Result<LoweringSession, TypeLoweringError>?
        var notes: [String] = []
        // The first line names the mode: a target (process or core) or files.
        guard let first = readLine(strippingNewline: true) else { return 2 }
        if first == TargetWire.header { return TargetWorker.run() }
        var pending: String? = first
        while let line = pending ?? readLine(strippingNewline: true) {
            pending = nil
            guard line.utf8.count <= LoweringWire.maximumLineLength, lines.count < 1 << 22 else {
                emit(LoweringWire.header)
                emit("note request too large")
                return 2
            }
            let keyword = LoweringWire.split(line).keyword
            if session == nil,
                keyword == "prepare" || keyword == "type" || keyword == "size" || keyword == "class" || keyword == "cfields"
                    || keyword == "end"
            {
                LoweringTrace.mark("worker", "preamble-read")
                // The `prepare` line is part of the preamble (it may ask for the whole file).
                switch LoweringRequest.decode(lines: lines + (keyword == "prepare" ? [line, "end"] : ["end"])) {
                case .success(let preamble):
                    session = Result { () throws(TypeLoweringError) in try LoweringSession(request: preamble) { notes.append($0) } }
                case .failure(let error):
                    session = .failure(error)
                }
            }
            lines.append(line)
            if line == "end" { break }
        }
        LoweringTrace.mark("worker", "request-read")
        emit(LoweringWire.header)
        let request: LoweringRequest
        switch LoweringRequest.decode(lines: lines) {
        case .success(let decoded): request = decoded
        case .failure(let error):
            emit("note \(error)")
            return 2
        }
        for note in notes { emit("note \(note)") }
        guard case .success(let ready)? = session else {
            if case .failure(let error)? = session { emit("note \(error)") }
            return 3
        }
        emit("ready")
        defer { LoweringTrace.mark("worker", "last-reply") }
        // The process ends after the last answer: the session (images, the library's caches) is
        // left to the exit rather than torn down piece by piece.
        _ = Unmanaged.passRetained(ready)
        for mangling in request.manglings {
            if let instance = LoweringWire.instanceMangling(mangling) {
                emit(ready.lowerInstance(mangling: instance).encoded(), newline: false)
                continue
            }
            if let imported = LoweringWire.importedFieldsMangling(mangling) {
                emit(ready.lowerImportedFields(mangling: imported).encoded(), newline: false)
                continue
            }
            let sizeOnly = request.sizeOnly.contains(mangling)
            emit(ready.lower(mangling: mangling, includeTypeNames: request.includeTypeNames, sizeOnly: sizeOnly).encoded(), newline: false)
        }
        return 0
    }

    private static func emit(_ text: String, newline: Bool = true) {
        // Unbuffered writes: each type reaches the client before the next one is started. A
        // failed write is a client that has gone: nothing more can be said.
        _ = try? FileDescriptor.standardOutput.writeAll((newline ? text + "\n" : text).utf8)
    }
}

/// The library, the images and their reflection context for one request.
final class LoweringSession {
    let library: RemoteMirrorLibrary
    let memory: ImageMemory
    let context: RemoteMirrorContext
    /// A second context over the file and the standard library, with the standard library's builtin
    /// type descriptors only, made on first need.
    lazy var fieldRecordContext: RemoteMirrorContext? = try? RemoteMirrorContext(
        library: library, memory: memory, importedStructRecords: true)
    /// Whether a typeref's layout rests on a zero-sized struct without fields, by typeref.
    var zeroSizedMemo: [UInt64: Bool] = [:]
    /// Whether a typeref holds a weak class existential inline, by typeref.
    var weakExistentialMemo: [UInt64: Bool] = [:]

    init(request: LoweringRequest, note: (String) -> Void) throws(TypeLoweringError) {
        library = try RemoteMirrorLibrary(path: request.libraryPath)
        LoweringTrace.mark("worker", "library-loaded")
        var images: [LoadableImage] = []
        for (index, path) in request.imagePaths.enumerated() {
            do {
                // Dependencies' tables are read when a read first reaches them (ImageMemory), and
                // their `.symtab` only if a private descriptor is looked up there.
                images.append(try LoadableImage(path: path, includeStaticSymbols: index == 0, deferringTables: index > 0))
            } catch {
                if index == 0 { throw .imageUnusable(path: path, reason: error.problem) }
                note("dependency \(path) skipped: \(error.problem)")
            }
        }
        LoweringTrace.mark("worker", "images-read")
        memory = try ImageMemory(images: images)
        LoweringTrace.mark("worker", "images-laid-out")
        // Only descriptors and metadata matter to type lowering; unresolved functions do not.
        let missing = memory.unresolvedSymbols.filter {
            $0.hasPrefix("$s") && ($0.hasSuffix("Mn") || $0.hasSuffix("Mp") || $0.hasSuffix("N"))
        }
        if !missing.isEmpty {
            note(
                "\(missing.count) type descriptors or metadata the file imports are defined by none of the images given (first: \(missing.sorted().first ?? "")): types using them stay unknown"
            )
        }
        context = try RemoteMirrorContext(library: library, memory: memory)
        LoweringTrace.mark("worker", "context-made")
        prepareBuiltinTypes()
        LoweringTrace.mark("worker", "builtins-prepared")
        if request.preparesWholeFile {
            prepareWholeFile()
            LoweringTrace.mark("worker", "whole-file-prepared")
        }
    }

    /// The work the lowering of any struct starts with, done while the client still reads the
    /// file: the library looks every struct up among the builtin type records (an imported C
    /// struct is one), and the first lookup reads every image's records and the names they refer
    /// to (which lays the dependencies' sections out). A builtin type's lowering does just that
    /// (it consults no field records), and the library caches what it read, so the answers do
    /// not change.
    func prepareBuiltinTypes() {
        if let integer = context.typeRef(mangledName: "Bi64_") { _ = context.info(of: integer) }
    }

    /// The work the lowering of most of a file's types starts with, done while the client still
    /// reads the file (the worker has nothing else to do until the types arrive): the library
    /// reads every image's builtin type records on the first builtin it meets, and on the first
    /// name no image declares (a whole file has private names, which it cannot resolve) it
    /// indexes every image's field records by name, remangling each. It caches both, so the
    /// answers do not change; the types' lowering then finds them ready.
    func prepareWholeFile() {
        if let integer = context.typeRef(mangledName: "Si") { _ = context.info(of: integer) }
        if let absent = context.typeRef(mangledName: Self.undeclaredTypeName) { _ = context.info(of: absent) }
    }

    /// A struct name for ``prepareWholeFile()`` to miss: a module name no Swift module takes
    /// (should a file declare it after all, the library just lowers that type).
    static let undeclaredTypeName = "25typeinfo_lowering_no_such6AbsentV"

    /// Lowers one type named by its mangling (without `$s`).
    ///
    /// - Parameter includeTypeNames: also name each child's type (for instantiations the file
    ///   has no field list of; remangling every child costs time the ordinary reading saves).
    /// - Parameter sizeOnly: only size, alignment and stride are wanted (a field's type).
    func lower(mangling: String, includeTypeNames: Bool = false, sizeOnly: Bool = false) -> LoweredType {
        var result = LoweredType(mangling: mangling)
        // By name first; private types (`…LL` names) the library resolves by name but cannot
        // find the fields of, so their typeref is built again from the descriptor.
        // A private name's by-name lookup is tried last: its miss makes the library index the
        // field records of every image (costly when a question concerns a few types).
        var lowered: (UInt64, LoweredInfo)?
        let isPrivate = Self.isPrivateNominalName(mangling)
        if isPrivate, let byDescriptor = typeRefThroughDescriptor(mangling), let info = context.info(of: byDescriptor) {
            lowered = (byDescriptor, info)
        }
        let byName = lowered == nil ? context.typeRef(mangledName: mangling) : nil
        if let byName, let info = context.info(of: byName) { lowered = (byName, info) }
        if lowered == nil, !isPrivate, let byDescriptor = typeRefThroughDescriptor(mangling), let info = context.info(of: byDescriptor) {
            lowered = (byDescriptor, info)
        }
        guard let (typeRef, info) = lowered else {
            result.unknownReason =
                byName == nil
                ? "the reflection library cannot resolve the name"
                : "the reflection library cannot lower it (a type it needs is in none of the images)"
            return result
        }
        if restsOnZeroSizedStruct(typeRef, depth: 0) {
            result.unknownReason =
                "it holds a zero-sized struct without stored properties: empty or @_rawLayout (Atomic, Mutex), which the library lowers alike"
            return result
        }
        let weakExistentialInside = holdsWeakExistential(typeRef)
        if weakExistentialInside, info.kind == .singlePayloadEnum || info.kind == .multiPayloadEnum {
            result.unknownReason =
                "a payload holds a weak class existential, whose extra inhabitants the library misstates"
            return result
        }
        result.take(info)
        if sizeOnly { return result }
        result.appendChildren(
            count: info.fieldCount, reading: { context.child(of: typeRef, at: $0) },
            lowering: { child, entry in
                if let childRef = child.typeRef, includeTypeNames { entry.mangledType = context.mangledName(of: childRef) }
                return child.typeRef.flatMap { context.info(of: $0) }
            })
        result.extraInhabitants =
            info.kind == .strongReference
            ? referenceExtraInhabitants(mangling: mangling, typeRef: typeRef)
            : weakExistentialInside ? nil : extraInhabitants(of: typeRef)
        if info.kind == .multiPayloadEnum {
            let payloadSize = result.children.compactMap(\.size).max() ?? 0
            result.tagSpareBits = tagSpareBits(of: typeRef, size: info.size, payloadSize: payloadSize)
        }
        return result
    }

    /// Whether `mangling` names a non-generic struct or enum declared `private` or `fileprivate`
    /// (its name carries a private discriminator: `…33_<hash>LLV`, `…LLO`).
    static func isPrivateNominalName(_ mangling: String) -> Bool {
        let bytes = mangling.utf8.suffix(3)
        guard bytes.count == 3 else { return false }
        return bytes.elementsEqual("LLV".utf8) || bytes.elementsEqual("LLO".utf8)
    }

    /// Metadata kinds (MetadataValues.h) of the synthetic records, by the mangling's last letter.
    static let metadataKinds: [Character: UInt64] = ["V": UInt64(MetadataKind.struct.rawValue), "O": UInt64(MetadataKind.enum.rawValue)]

    /// The typeref of a non-generic struct or enum found through its descriptor symbol
    /// (`$s…Mn`), for names the library cannot resolve (private types).
    private func typeRefThroughDescriptor(_ mangling: String) -> UInt64? {
        guard let last = mangling.last, let kind = Self.metadataKinds[last], !mangling.hasSuffix("G"),
            // Not only the file's own: a superclass's private field types live in its image.
            let descriptor = memory.symbolAddress("$s" + mangling + "Mn"),
            let metadata = memory.syntheticMetadata(kind: kind, descriptor: descriptor)
        else { return nil }
        return context.typeRef(metadata: metadata)
    }

    /// Whether `typeRef` is, or holds inline, a struct of size 0 with no fields: the library lowers
    /// `@_rawLayout` storage (Atomic, Mutex) that way, so any layout around it is wrong.
    func restsOnZeroSizedStruct(_ typeRef: UInt64, depth: Int) -> Bool {
        holdsInline(typeRef, depth: depth, memo: \.zeroSizedMemo) { _, info in
            info.kind == .struct && info.size == 0 && info.fieldCount == 0
        }
    }

    /// Whether `typeRef`, or a part it holds inline (a struct's or tuple's field, an enum's
    /// payload, to ``maximumDepth``), is what `matches` looks for; each answer is kept in `memo`.
    func holdsInline(
        _ typeRef: UInt64, depth: Int, memo: ReferenceWritableKeyPath<LoweringSession, [UInt64: Bool]>,
        matches: (UInt64, LoweredInfo) -> Bool
    ) -> Bool {
        if let known = self[keyPath: memo][typeRef] { return known }
        guard depth < Self.maximumDepth, let info = context.info(of: typeRef) else { return false }
        var answer = matches(typeRef, info)
        if !answer, [.struct, .tuple, .singlePayloadEnum, .multiPayloadEnum].contains(info.kind) {
            for index in 0..<min(info.fieldCount, LoweringWire.maximumChildren) {
                if let child = context.child(of: typeRef, at: index)?.typeRef,
                    holdsInline(child, depth: depth + 1, memo: memo, matches: matches)
                {
                    answer = true
                    break
                }
            }
        }
        self[keyPath: memo][typeRef] = answer
        return answer
    }

    static let maximumDepth = 48
}
