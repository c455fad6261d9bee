import TypeLayout

/// Reads the Swift types an ELF binary defines, from disk, without running or loading it.
///
/// ```swift
/// let document = try BinaryImage.layouts(atPath: "/usr/lib/libFoo.so")
/// for type in document.types { print(type.name, type.size ?? -1) }
/// ```
///
/// Facts the file does not hold (the layout of generic types, of types whose metadata the
/// runtime completes at load time) are `nil`, never guessed; the summary's `notes` say why.
public enum BinaryImage {
    /// Reads every Swift type in the ELF file at `path`.
    ///
    /// - Parameter path: an executable, shared library or relocatable object (`.o`).
    /// - Returns: the types in the file's order, with an image summary.
    /// - Throws: ``BinaryInfoError`` for a missing, unreadable, non-ELF, malformed or non-Swift file.
    public static func layouts(atPath path: String) throws(BinaryInfoError) -> LayoutDocument {
        try read(atPath: path).document
    }

    /// Reads every Swift type in the ELF file at `path`, with what a reader merging other
    /// sources needs to keep the result true (``BinaryReading``).
    ///
    /// - Parameter path: an executable, shared library or relocatable object (`.o`).
    /// - Throws: ``BinaryInfoError`` as ``layouts(atPath:)`` does.
    public static func read(atPath path: String) throws(BinaryInfoError) -> BinaryReading {
        let bytes = try ImageLoader.readFile(path)
        return try read(bytes, path: path)
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
    /// - Throws: ``BinaryInfoError`` as ``layouts(atPath:)`` does.
    public static func read(atPath path: String, selecting selects: @escaping (TypeLayout) -> Bool) throws(BinaryInfoError) -> BinaryReading
    {
        let bytes = try ImageLoader.readFile(path)
        return try read(bytes, path: path, selecting: selects)
    }

    /// Reads every Swift type in an ``ImageFile`` that other readers (DWARF) share.
    ///
    /// - Parameter file: the file, read once.
    /// - Throws: ``BinaryInfoError`` as ``layouts(atPath:)`` does.
    public static func read(_ file: ImageFile) throws(BinaryInfoError) -> BinaryReading {
        try read(file.bytes, path: file.path)
    }

    /// Reads the Swift types in an ``ImageFile`` that a question is about, as
    /// ``read(atPath:selecting:)`` does.
    ///
    /// - Parameters:
    ///   - file: the file, read once.
    ///   - selects: judges a type by its name, kind, module, generic parameters and mangled name.
    /// - Throws: ``BinaryInfoError`` as ``layouts(atPath:)`` does.
    public static func read(_ file: ImageFile, selecting selects: @escaping (TypeLayout) -> Bool) throws(BinaryInfoError) -> BinaryReading {
        try read(file.bytes, path: file.path, selecting: selects)
    }

    /// Reads every Swift type in an ELF image held in memory (for fuzzing and tests).
    ///
    /// - Parameters:
    ///   - bytes: the file's contents.
    ///   - name: what to call the image in the summary.
    /// - Returns: the types in the image's order.
    /// - Throws: ``BinaryInfoError`` as ``layouts(atPath:)`` does.
    public static func layouts(of bytes: [UInt8], name: String) throws(BinaryInfoError) -> LayoutDocument {
        try layouts(of: FileBytes(bytes, path: name), path: name)
    }

    static func layouts(of bytes: FileBytes, path: String) throws(BinaryInfoError) -> LayoutDocument {
        try read(bytes, path: path).document
    }

    static func read(_ bytes: FileBytes, path: String, selecting selects: ((TypeLayout) -> Bool)? = nil) throws(BinaryInfoError)
        -> BinaryReading
    {
        // Symbols are looked up by address only among the few descriptor symbols
        // (``SwiftImage/descriptorSymbol(at:)``), which are sorted alone.
        let file = try ELFFile(bytes: bytes, sortsSymbols: false)
        let space = try AddressSpace(file: file, bytes: bytes)
        let image = SwiftImage(file: file, space: space)
        guard image.sections["swift5_fieldmd"] != nil || image.sections["swift5_type_metadata"] != nil else {
            throw BinaryInfoError.notSwift(path: path)
        }
        let types = try image.readTypes(selecting: selects)
        let fileType: String
        switch file.fileType {
        case ELFFile.typeRelocatable: fileType = "relocatable"
        case ELFFile.typeExecutable: fileType = "executable"
        case ELFFile.typeShared: fileType = file.hasInterpreter ? "executable" : "shared-library"
        default: fileType = "ELF type \(file.fileType)"
        }
        var notes = image.notes
        if !file.hasSymtab {
            notes.insert("no .symtab (stripped): private and local types are named without their file discriminator", at: 0)
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

/// What ``BinaryImage/read(atPath:)`` found.
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
