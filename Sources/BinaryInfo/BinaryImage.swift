import TypeLayout

/// Reads the Swift types an ELF binary defines, from disk, without running or loading it.
///
/// ```swift
/// let runtime = "/opt/swift/usr/lib/swift/linux/libswiftCore.so"
/// let document = try BinaryImage.layouts(atPath: "/usr/lib/libFoo.so", runtimeLibrary: runtime)
/// for type in document.types { print(type.name, type.size ?? -1) }
/// ```
///
/// Facts the file does not hold (the layout of generic types, of types whose metadata the
/// runtime completes at load time) are `nil`, never guessed; the summary's `notes` say why.
public enum BinaryImage {
    /// Reads every Swift type in the ELF file at `path`.
    ///
    /// - Parameters:
    ///   - path: an executable, shared library or relocatable object (`.o`).
    ///   - runtimeLibrary: the Swift runtime library (a toolchain's `libswiftCore.so`) whose value
    ///     witness tables give the sizes of types that reuse them; nil: those sizes are unknown
    ///     and a note says so. Nothing is looked up in the running process.
    /// - Returns: the types in the file's order, with an image summary.
    /// - Throws: ``BinaryInfoError`` for a missing, unreadable, non-ELF, malformed or non-Swift file.
    public static func layouts(atPath path: String, runtimeLibrary: String?) throws(BinaryInfoError) -> LayoutDocument {
        try read(atPath: path, runtimeLibrary: runtimeLibrary).document
    }

    /// Reads every Swift type in the ELF file at `path`, with what a reader merging other
    /// sources needs to keep the result true (``BinaryReading``).
    ///
    /// - Parameters:
    ///   - path: an executable, shared library or relocatable object (`.o`).
    ///   - runtimeLibrary: the Swift runtime library (a toolchain's `libswiftCore.so`) whose value
    ///     witness tables give the sizes of types that reuse them; nil: those sizes are unknown
    ///     and a note says so. Nothing is looked up in the running process.
    /// - Throws: ``BinaryInfoError`` as ``layouts(atPath:runtimeLibrary:)`` does.
    public static func read(atPath path: String, runtimeLibrary: String?) throws(BinaryInfoError) -> BinaryReading {
        let bytes = try ImageLoader.readFile(path)
        return try read(bytes, path: path, runtimeLibrary: runtimeLibrary)
    }

    /// Reads the Swift types in the ELF file at `path` that a question is about: those `selects`
    /// accepts, and the types their layouts need or refer to (superclasses, field and payload
    /// types, an optional's wrapped type), with every protocol. Other types are named but not
    /// laid out, so a question about one type costs little more than naming every type.
    ///
    /// The types returned are laid out exactly as in ``read(atPath:)``; the notes that count
    /// types count only the types laid out.
    ///
    /// - Parameters:
    ///   - path: an executable, shared library or relocatable object (`.o`).
    ///   - selects: judges a type by the facts known before its fields are read: `name`, `kind`,
    ///     `module`, `genericParameters`, `mangledName`.
    ///   - runtimeLibrary: the Swift runtime library (a toolchain's `libswiftCore.so`) whose value
    ///     witness tables give the sizes of types that reuse them; nil: those sizes are unknown
    ///     and a note says so. Nothing is looked up in the running process.
    /// - Throws: ``BinaryInfoError`` as ``layouts(atPath:runtimeLibrary:)`` does.
    public static func read(atPath path: String, selecting selects: @escaping (TypeLayout) -> Bool, runtimeLibrary: String?)
        throws(BinaryInfoError) -> BinaryReading
    {
        let bytes = try ImageLoader.readFile(path)
        return try read(bytes, path: path, selecting: selects, runtimeLibrary: runtimeLibrary)
    }

    /// Reads every Swift type in an ``ImageFile`` that other readers (DWARF) share.
    ///
    /// - Parameters:
    ///   - file: the file, read once.
    ///   - runtimeLibrary: the Swift runtime library (a toolchain's `libswiftCore.so`) whose value
    ///     witness tables give the sizes of types that reuse them; nil: those sizes are unknown
    ///     and a note says so. Nothing is looked up in the running process.
    /// - Throws: ``BinaryInfoError`` as ``layouts(atPath:runtimeLibrary:)`` does.
    public static func read(_ file: ImageFile, runtimeLibrary: String?) throws(BinaryInfoError) -> BinaryReading {
        try read(file.bytes, path: file.path, runtimeLibrary: runtimeLibrary, sharedWith: file)
    }

    /// Reads the Swift types in an ``ImageFile`` that a question is about, as
    /// ``read(atPath:selecting:runtimeLibrary:)`` does.
    ///
    /// - Parameters:
    ///   - file: the file, read once.
    ///   - selects: judges a type by its name, kind, module, generic parameters and mangled name.
    ///   - runtimeLibrary: the Swift runtime library (a toolchain's `libswiftCore.so`) whose value
    ///     witness tables give the sizes of types that reuse them; nil: those sizes are unknown
    ///     and a note says so. Nothing is looked up in the running process.
    /// - Throws: ``BinaryInfoError`` as ``layouts(atPath:runtimeLibrary:)`` does.
    public static func read(_ file: ImageFile, selecting selects: @escaping (TypeLayout) -> Bool, runtimeLibrary: String?)
        throws(BinaryInfoError) -> BinaryReading
    {
        try read(file.bytes, path: file.path, selecting: selects, runtimeLibrary: runtimeLibrary, sharedWith: file)
    }

    /// Reads every Swift type in an ELF image held in memory (for fuzzing and tests).
    ///
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - name: what to call the image in the summary.
    ///   - runtimeLibrary: the Swift runtime library (a toolchain's `libswiftCore.so`) whose value
    ///     witness tables give the sizes of types that reuse them; nil: those sizes are unknown
    ///     and a note says so. Nothing is looked up in the running process.
    /// - Returns: the types in the image's order.
    /// - Throws: ``BinaryInfoError`` as ``layouts(atPath:runtimeLibrary:)`` does.
    public static func layouts(of bytes: [UInt8], name: String, runtimeLibrary: String?) throws(BinaryInfoError) -> LayoutDocument {
        try read(FileBytes(bytes, path: name), path: name, runtimeLibrary: runtimeLibrary).document
    }

    /// - Parameter imageFile: the ``ImageFile`` holding `bytes`, which keeps this parse's headers
    ///   for the readers after this one.
    /// - Parameter loaded: where the sections' bytes are read from (the file's own by default).
    static func read(
        _ bytes: FileBytes, path: String, selecting selects: ((TypeLayout) -> Bool)? = nil, runtimeLibrary: String?,
        sharedWith imageFile: ImageFile? = nil, loaded: LoadedBytes = .file
    ) throws(BinaryInfoError) -> BinaryReading {
        // Symbols are looked up by address only among the few descriptor symbols
        // (``SwiftImage/descriptorSymbol(at:)``), which are sorted alone.
        let file = try ELFFile(bytes: bytes, sortsSymbols: false)
        imageFile?.adoptHeaders(of: file)
        let space: AddressSpace
        switch loaded {
        case .file: space = try AddressSpace(file: file, bytes: bytes)
        case .target(let memory, let bias): space = try AddressSpace(file: file, bytes: bytes, loadedIn: memory, bias: bias)
        }
        let image = SwiftImage(file: file, space: space, runtimeLibrary: runtimeLibrary)
        guard image.sections["swift5_fieldmd"] != nil || image.sections["swift5_type_metadata"] != nil else {
            throw BinaryInfoError.notSwift(path: path)
        }
        let types = try image.readTypes(selecting: selects)
        let fileType: ImageFileType
        switch file.fileType {
        case ELFFile.typeRelocatable: fileType = .relocatable
        case ELFFile.typeExecutable: fileType = .executable
        case ELFFile.typeShared: fileType = file.hasInterpreter ? .executable : .sharedLibrary
        default: fileType = .elfType(file.fileType)
        }
        var notes = image.notes
        if !file.hasSymtab {
            notes.insert(.symbolTableMissing, at: 0)
        }
        let summary = ImageSummary(
            path: path, fileType: fileType, architecture: file.architecture,
            hasSymbols: file.hasSymtab, hasDebugInfo: file.hasDebugInfo, notes: notes
        )
        let document = LayoutDocument(image: summary, types: types)
        // The reading is done with the symbol tables; a DWARF reading of the same file comes next.
        file.releaseCopiedTablePages(in: bytes)
        file.releaseStaticNamePages(in: bytes)
        return BinaryReading(document: document, runtimeSharedTypes: Set(image.runtimeSharedForeignTypes.flatMap(\.manglings)))
    }
}

/// What ``BinaryImage/read(atPath:runtimeLibrary:)`` found.
public struct BinaryReading: Sendable {
    /// The types and the image summary.
    public var document: LayoutDocument
    /// The manglings of imported C types that the Swift runtime merges with another of the
    /// same name but a different layout (C anonymous members such as `__Unnamed_union_data`):
    /// which layout the runtime uses is decided at run time, so their layouts are withheld.
    /// A reader that merges other sources withholds them again afterwards
    /// (``BinaryImage/withholdLayouts(ofRuntimeSharedTypes:in:)``).
    public var runtimeSharedTypes: Set<String>
}
