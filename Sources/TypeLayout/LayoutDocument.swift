/// A set of type layouts read from one image (a binary on disk, or the running process):
/// the top-level object of the versioned JSON schema documented in `docs/json-schema.md`.
public struct LayoutDocument: Hashable, Sendable {
    /// The schema version this build writes. Readers accept documents up to this version.
    public static let currentSchemaVersion = 1

    /// The schema version of this document.
    public var schemaVersion: Int
    /// Where the layouts came from.
    public var image: ImageSummary
    /// The layouts, in the image's order (or sorted by name in snapshots).
    public var types: [TypeLayout]

    /// Creates a document with the current schema version.
    public init(image: ImageSummary, types: [TypeLayout]) {
        self.schemaVersion = Self.currentSchemaVersion
        self.image = image
        self.types = types
    }
}

/// What a layout document says about the image it was read from.
public struct ImageSummary: Hashable, Sendable {
    /// The path given by the user, or the process name for in-process documents.
    public var path: String
    /// What the document was read from, where known.
    public var fileType: ImageFileType?
    /// The machine architecture (`x86_64`, `aarch64`).
    public var architecture: String?
    /// Whether the image had a symbol table (`.symtab`).
    public var hasSymbols: Bool?
    /// Whether the image had DWARF debug information.
    public var hasDebugInfo: Bool?
    /// Things the readers could not do for this image, and where two sources disagree: values
    /// with a kind (``LayoutNote``), each said plainly by its ``LayoutNote/text``.
    public var notes: [LayoutNote]

    /// Creates an image summary.
    public init(
        path: String,
        fileType: ImageFileType? = nil,
        architecture: String? = nil,
        hasSymbols: Bool? = nil,
        hasDebugInfo: Bool? = nil,
        notes: [LayoutNote] = []
    ) {
        self.path = path
        self.fileType = fileType
        self.architecture = architecture
        self.hasSymbols = hasSymbols
        self.hasDebugInfo = hasDebugInfo
        self.notes = notes
    }
}
