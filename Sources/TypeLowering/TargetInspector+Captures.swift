import BinaryInfo

/// One value a closure context captures, as libswiftRemoteMirror lays the context out from the
/// capture descriptor its metadata points at (`swift_reflection_infoForInstance`).
public struct TargetCapture: Sendable, Equatable {
    /// Where the value lies, from the context's address.
    public var offset: Int
    /// How the toolchain lowers it (nil when the library gave a kind this build does not know).
    public var kind: LoweredKind?
    /// Its type as the runtime writes it, nil when the library gave no type or the demangler
    /// cannot spell it.
    public var typeName: String?
    /// Its type, mangled without `$s`.
    public var mangledTypeName: String?

    public init(offset: Int, kind: LoweredKind?, typeName: String?, mangledTypeName: String?) {
        self.offset = offset
        self.kind = kind
        self.typeName = typeName
        self.mangledTypeName = mangledTypeName
    }
}

extension TargetInspector {
    /// The captures of the closure contexts at `contexts` (heap objects whose metadata is
    /// `HeapLocalVariable`), in one worker run.
    ///
    /// A context's layout depends on the context alone when its capture descriptor has no
    /// metadata sources and no bindings; otherwise the library reads the generic arguments from
    /// the context itself, and what it says holds for that context only.
    ///
    /// - Returns: the captures of each context the library could lay out, in order; a context it
    ///   could not (no capture descriptor it knows, a capture type it cannot lower) is left out.
    /// - Throws: as ``typeNames(ofMetadata:)``.
    public func captures(ofContextsAt contexts: [UInt64]) throws(TypeLoweringError) -> [UInt64: [TargetCapture]] {
        try checkReadable()
        let asked = Set(contexts.filter { $0 != 0 && $0 & 7 == 0 }).sorted()
        guard !asked.isEmpty else { return [:] }
        var captures: [UInt64: [TargetCapture]] = [:]
        var answered: [UInt64: Int] = [:]
        try ask(asked.map { .captures($0) }) { reply in
            switch reply {
            case .capture(let address, let record):
                captures[address, default: []].append(
                    TargetCapture(
                        offset: record.offset, kind: record.kind, typeName: record.mangledType.flatMap(typeName(libraryMangling:)),
                        mangledTypeName: record.mangledType.map(LibraryManglings.corrected)))
            case .captures(let address, let count?): answered[address] = count
            default: break
            }
        }
        var result: [UInt64: [TargetCapture]] = [:]
        for (address, count) in answered where (captures[address]?.count ?? 0) == count {
            result[address] = captures[address] ?? []
        }
        return result
    }
}

extension TargetBatchAnswerer {
    /// Answers a `captures` query: the library lays out a closure context from its metadata's
    /// capture descriptor (a context whose metadata is of another kind gets `?`).
    func captures(ofContextAt context: UInt64) {
        guard let info = self.context.info(ofInstance: context), info.kind == .closureContext else {
            emit(.captures(context, count: nil))
            return
        }
        let count = min(info.fieldCount, LoweringWire.maximumChildren)
        for index in 0..<count {
            guard let child = self.context.child(ofInstance: context, at: index) else {
                emit(.captures(context, count: nil))
                return
            }
            emit(.capture(context, record(of: child)))
        }
        emit(.captures(context, count: count == info.fieldCount ? count : nil))
    }
}

extension TargetField {
    /// Capture `index` of a closure context as a field (named `capture N`), so that what reads a
    /// class's stored properties reads a context's captures alike; `context` is the context's
    /// metadata (as ``declaringClass``).
    public init(capture: TargetCapture, index: Int, context: UInt64) {
        self.init(
            name: "capture \(index)", offset: capture.offset, kind: capture.kind, typeName: capture.typeName,
            mangledTypeName: capture.mangledTypeName, declaringClass: context)
    }
}
