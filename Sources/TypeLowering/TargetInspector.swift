import BinaryInfo
import TypeLayout

/// One stored property of a class instance in a target.
public struct TargetField: Sendable, Equatable {
    /// The property's name.
    public var name: String
    /// Its offset in the instance (from the object's address).
    public var offset: Int
    /// How the toolchain lays its type out, when the library says.
    public var kind: LoweredKind?
    /// Its type, spelled as every name typeinfo prints (the runtime's demangler and
    /// ``TypeNameSugar``), when the library could name it.
    public var typeName: String?
    /// Its type's mangling, without `$s`.
    public var mangledTypeName: String?
    /// The metadata of the class that declares it (the object's class or an ancestor).
    public var declaringClass: UInt64
    /// Whether it is a `var` (its field record's flag); nil when the record was not read.
    public var isVar: Bool? = nil
    /// Why a parameterized existential's requirement the library left on a generic parameter of
    /// the instantiation that holds the field was not bound to its argument (the type then has
    /// no name); nil otherwise.
    public var requirementUnbound: String? = nil
}

/// A target (a running process or a core file) opened for questions about its Swift heap: the
/// images it had loaded, which words are Swift class metadata, their types' names and an
/// instance's stored properties.
///
/// Images and class metadata are read in this process, from the target's memory alone
/// (``TargetMemory``, ``SwiftClassRecognizer``). Names and fields come from the toolchain's
/// libswiftRemoteMirror, run in one `typeinfo-lowering` worker kept for the inspector's life and
/// asked in batches (``TargetWorkerSession``): it opens the target once, with the images matched
/// here. A crash, a hang or a target that vanishes during a batch is one ``TypeLoweringError``
/// for that batch, never a hang here; the next batch has a new worker. The target is never
/// written.
///
/// ```swift
/// let target = try TargetInspector(.process(pid))
/// let classes = words.compactMap(target.classMetadata(at:))
/// let names = try target.typeNames(ofMetadata: classes.map(\.address))
/// let fields = try target.storedFields(ofClassAt: classes[0].address)
/// ```
public final class TargetInspector: Sendable {
    /// The target's memory and images.
    public let memory: TargetMemory
    /// The class metadata recogniser over the target's Swift images.
    public let classes: SwiftClassRecognizer
    /// The directories searched for moved image files (passed on to the worker).
    public let imageSearchPaths: [String]
    /// Where the worker and the reflection library are.
    public let configuration: LoweringConfiguration
    /// The private discriminators of the target's private types, found as names need them.
    let privateNames: PrivateDiscriminators
    /// The worker the questions are asked of, kept between batches.
    let session: TargetWorkerSession

    /// Opens `target` and matches its images to their files by build id.
    ///
    /// - Throws: ``TypeLoweringError/target(_:)`` with the ``BinaryInfoError`` that says what is
    ///   wrong: no such process, permission denied, a truncated core, an image file missing or of
    ///   another build (``BinaryInfoError/imageDiffers(path:image:expected:found:foundPath:)``).
    public init(_ target: TargetSpecifier, imageSearchPaths: [String] = [], configuration: LoweringConfiguration = .resolved())
        throws(TypeLoweringError)
    {
        do {
            memory = try TargetMemory(target, imageSearchPaths: imageSearchPaths)
            classes = try SwiftClassRecognizer(memory: memory)
        } catch {
            throw .target(error)
        }
        self.imageSearchPaths = imageSearchPaths
        self.configuration = configuration
        privateNames = PrivateDiscriminators(memory: memory)
        session = TargetWorkerSession(memory: memory, imageSearchPaths: imageSearchPaths, configuration: configuration)
    }

    /// The ELF images the target had loaded, by load address.
    public var images: [TargetImage] { memory.images }

    /// The Swift class metadata at `address`, or nil when the word is not one (see
    /// ``SwiftClassRecognizer``).
    public func classMetadata(at address: UInt64) -> SwiftClassMetadata? {
        classes.classMetadata(at: address)
    }

    /// The closure-context or fixed-size box metadata at `address`, or nil (see
    /// ``SwiftClassRecognizer/contextMetadata(at:)``).
    public func contextMetadata(at address: UInt64) -> SwiftContextMetadata? {
        classes.contextMetadata(at: address)
    }

    /// The class metadata among `candidates`, each distinct word checked once (see
    /// ``SwiftClassRecognizer/classMetadata(candidates:)``).
    public func classMetadata(candidates: some Sequence<UInt64>) -> [UInt64: SwiftClassMetadata] {
        classes.classMetadata(candidates: candidates)
    }

    /// The type names of class metadata records, as libswiftRemoteMirror reads them from the
    /// target (generic arguments included: `LiveHeap.Box<Swift.Int>`).
    ///
    /// - Parameter addresses: metadata addresses; one that is not a Swift class's metadata is
    ///   never passed to the library and has no name in the result.
    /// - Returns: the name of each address the library could name.
    /// - Throws: ``TypeLoweringError`` when the worker cannot run, crashes, hangs, or the target
    ///   becomes unreadable (``TypeLoweringError/target(_:)`` with the process's exit).
    public func typeNames(ofMetadata addresses: [UInt64]) throws(TypeLoweringError) -> [UInt64: String] {
        try checkReadable()
        let valid = addresses.filter { classMetadata(at: $0) != nil }
        guard !valid.isEmpty else { return [:] }
        var names: [UInt64: String] = [:]
        try ask(Array(Set(valid)).sorted().map { .name($0) }) { reply in
            if case .name(let address, let mangling?) = reply { names[address] = typeName(libraryMangling: mangling) }
        }
        return names
    }

    /// The name of a type as the reflection library spelled its mangling (without `$s`), written
    /// as the runtime writes it (``LibraryManglings``), a private type with its discriminator
    /// (``PrivateDiscriminators``), with the sugar of ``TypeNameSugar``; nil when the runtime's
    /// demangler cannot spell it, or the library's spelling is one it garbles (a parameterized
    /// existential's requirement: ``LibraryManglings/isGarbledConstraint(_:)``).
    public func typeName(libraryMangling mangling: String) -> String? {
        let mangling = privateNames.resolved(LibraryManglings.corrected(mangling))
        guard let name = SwiftDemangler.demangle(symbol: "$s" + mangling + "D"), !LibraryManglings.isGarbledConstraint(name) else {
            return nil
        }
        return TypeNameSugar.apply(LibraryManglings.withoutRepresentations(name))
    }

    /// The stored properties of an instance of the class whose metadata is at `metadata`: its
    /// ancestors' first, each from the field records of the class that declares it.
    ///
    /// - Returns: nil when `metadata` is not a Swift class's metadata, or the library could not
    ///   list a class of its chain.
    /// - Throws: as ``typeNames(ofMetadata:)``.
    public func storedFields(ofClassAt metadata: UInt64) throws(TypeLoweringError) -> [TargetField]? {
        try storedFields(ofClassesAt: [metadata])[metadata]
    }

    /// ``storedFields(ofClassAt:)`` for several classes in one worker run (an object's references
    /// followed to some depth).
    ///
    /// - Returns: the fields of each class the library could list; classes that are not, or that
    ///   it could not list, are left out.
    /// - Throws: as ``typeNames(ofMetadata:)``.
    public func storedFields(ofClassesAt metadata: [UInt64]) throws(TypeLoweringError) -> [UInt64: [TargetField]] {
        try checkReadable()
        var chains: [UInt64: [UInt64]] = [:]
        for address in Set(metadata) {
            if let chain = superclassChain(of: address) { chains[address] = chain }
        }
        let asked = Array(Set(chains.values.joined())).sorted()
        guard !asked.isEmpty else { return [:] }
        var fields: [UInt64: [TargetField]] = [:]
        var answered: Set<UInt64> = []
        try ask(asked.map { .fields($0) }) { reply in
            switch reply {
            case .field(let address, let record):
                fields[address, default: []].append(
                    TargetField(
                        name: record.name, offset: record.offset, kind: record.kind,
                        typeName: record.mangledType.flatMap(typeName(libraryMangling:)),
                        mangledTypeName: record.mangledType.map(LibraryManglings.corrected),
                        declaringClass: address))
            case .fields(let address, let count?):
                if fields[address, default: []].count == count { answered.insert(address) }
            default: break
            }
        }
        for (address, list) in fields {
            guard let descriptor = classMetadata(at: address)?.descriptor, let mutability = fieldMutability(ofDescriptor: descriptor)
            else { continue }
            fields[address] = list.map { field in
                var field = field
                field.isVar = mutability[field.name]
                return field
            }
        }
        // A field's generic parameters are those of the class that declares it.
        let declaring = fields.keys.sorted()
        let bound = try bindingRequirements(declaring.flatMap { fields[$0] ?? [] }) { .metadata($0.declaringClass) }
        var next = 0
        for address in declaring {
            let count = fields[address]?.count ?? 0
            fields[address] = Array(bound[next..<(next + count)])
            next += count
        }
        return chains.filter { $0.value.allSatisfy(answered.contains) }.mapValues { chain in
            chain.reversed().flatMap { fields[$0] ?? [] }
        }
    }

    /// `metadata` and its superclasses' metadata, up to a root class; nil when one of them is not
    /// a class's metadata (nothing about its fields would be read from the target) or the chain
    /// loops.
    private func superclassChain(of metadata: UInt64) -> [UInt64]? {
        guard var current = classMetadata(at: metadata) else { return nil }
        var chain = [current.address]
        while let superclass = current.superclass {
            guard let next = classMetadata(at: superclass), chain.count < 64, !chain.contains(superclass) else { return nil }
            chain.append(next.address)
            current = next
        }
        return chain
    }

    /// Every generic metadata record the target's runtime has made (the entries of its generic
    /// metadata caches), with each type's mangling (without `$s`) when the library can name it.
    ///
    /// - Returns: the records, or why they cannot be listed: the runtime keeps the allocator's
    ///   bookkeeping only when the process was started with
    ///   `SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION=1`.
    /// - Throws: as ``typeNames(ofMetadata:)``.
    public func genericMetadata() throws(TypeLoweringError) -> Result<GenericMetadataListing, TargetListingUnavailable> {
        try checkReadable()
        var records: [GenericMetadataListing.Record] = []
        var outcome: Result<GenericsListing, TargetListingUnavailable>?
        try ask([.generics]) { reply in
            switch reply {
            case .name(let address, let mangling):
                records.append(.init(metadata: address, mangling: mangling.map(LibraryManglings.corrected)))
            case .generics(let result): outcome = result
            default: break
            }
        }
        switch outcome {
        case .success(let listing)? where listing.count == records.count:
            return .success(GenericMetadataListing(records: records, stops: listing.stops))
        case .failure(let unavailable)?: return .failure(unavailable)
        default: throw .protocolViolation(detail: "the worker listed \(records.count) generic metadata records but did not end the list")
        }
    }

    /// The lowering and children of types by mangling (without `$s`), as the library lays them out
    /// in the target: a struct's stored properties, a tuple's elements, an enum's cases (each with
    /// its payload type, offset 0).
    ///
    /// - Returns: each mangling the library could lay out, with its children.
    /// - Throws: as ``typeNames(ofMetadata:)``.
    public func layouts(ofTypes manglings: [String]) throws(TypeLoweringError) -> [String: (
        layout: TargetTypeLayout, children: [TargetField]
    )] {
        try checkReadable()
        let wanted = Array(Set(manglings.filter { TargetWire.isMangling($0) })).sorted()
        guard !wanted.isEmpty else { return [:] }
        var children: [String: [TargetField]] = [:]
        var layouts: [String: (layout: TargetTypeLayout, children: [TargetField])] = [:]
        try ask(wanted.map { .layout($0) }) { reply in
            switch reply {
            case .child(let mangling, let record):
                children[mangling, default: []].append(
                    TargetField(
                        name: record.name, offset: record.offset, kind: record.kind,
                        typeName: record.mangledType.flatMap(typeName(libraryMangling:)),
                        mangledTypeName: record.mangledType.map(LibraryManglings.corrected),
                        declaringClass: 0))
            case .layout(let mangling, let layout?):
                if children[mangling, default: []].count == layout.childCount { layouts[mangling] = (layout, children[mangling] ?? []) }
            default: break
            }
        }
        // A struct's fields are of its instantiation's generic parameters.
        for (mangling, found) in layouts
        where found.layout.kind == .struct && found.children.contains(where: \.leavesRequirementOnParameter) {
            layouts[mangling]?.children = try bindingRequirements(found.children) { _ in .mangling(mangling) }
        }
        return layouts
    }

    /// Which case each enum value holds: `values` pairs a type's mangling with the value's address.
    ///
    /// - Returns: the case index and name of each value the library could decode, keyed like `values`.
    /// - Throws: as ``typeNames(ofMetadata:)``.
    public func enumCases(of values: [(mangling: String, address: UInt64)]) throws(TypeLoweringError) -> [String: (
        index: Int, name: String
    )] {
        try checkReadable()
        let queries = values.filter { TargetWire.isMangling($0.mangling) }
        guard !queries.isEmpty else { return [:] }
        var cases: [String: (index: Int, name: String)] = [:]
        try ask(queries.map { .enumCase($0.mangling, $0.address) }) { reply in
            if case .enumCase(let mangling, let address, let index?, let name?) = reply {
                cases[Self.enumKey(mangling, address)] = (index, name)
            }
        }
        return cases
    }

    /// The key ``enumCases(of:)`` answers a value under.
    public static func enumKey(_ mangling: String, _ address: UInt64) -> String { "\(mangling)@\(TargetWire.hex(address))" }

    /// Throws the target's error when it can no longer be read (a process that exited): every
    /// word would otherwise read as "not a class".
    func checkReadable() throws(TypeLoweringError) {
        guard let image = memory.images.first else { return }
        do {
            _ = try memory.read(UInt8.self, at: image.loadAddress, what: "ELF header")
        } catch {
            throw .target(error)
        }
    }

    /// Asks `queries` of the worker as one batch, feeding each reply to `onReply`.
    ///
    /// - Throws: as ``TargetWorkerSession/ask(_:onReply:)``.
    func ask(_ queries: [TargetRequest.Query], onReply: (TargetReply) -> Void) throws(TypeLoweringError) {
        try session.ask(queries, onReply: onReply)
    }
}

/// Why what a target's runtime holds could not be listed.
public struct TargetListingUnavailable: Error, Sendable, Equatable {
    /// In one clause: `the process was not started with SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION=1`.
    public var reason: String
    /// Whether the runtime keeps no list (the process was started without
    /// `SWIFT_DEBUG_ENABLE_METADATA_ALLOCATION_ITERATION=1`), rather than one that could not be read.
    public var runtimeKeepsNoList: Bool

    public init(reason: String, runtimeKeepsNoList: Bool = false) {
        self.reason = reason
        self.runtimeKeepsNoList = runtimeKeepsNoList
    }
}

/// The generic metadata records a target's runtime made (``TargetInspector/genericMetadata()``).
public struct GenericMetadataListing: Sendable, Equatable {
    /// One metadata record and its type's mangling (without `$s`), nil when the library cannot name it.
    public struct Record: Sendable, Equatable {
        public var metadata: UInt64
        public var mangling: String?
    }

    /// Each record once, by address.
    public var records: [Record]
    /// Where the walk of the runtime's metadata pool stopped at bytes that are no allocation
    /// header (or could not go on): records after each, in its pool, are not listed. Empty when
    /// every pool was walked to its end.
    public var stops: [UInt64]
}
