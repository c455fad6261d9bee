import DWARFInfo

/// What a reading may use besides the file itself. Every input is explicit: the library reads no
/// environment variable and never asks the running process for a layout (only, by default, where
/// its toolchain's library directory is: ``RuntimeLibraries/resolved(toolchainDirectory:)``).
public struct LayoutReadOptions: Sendable, Equatable {
    /// The Swift libraries the file's types may refer to (their layouts are read from these files).
    public enum RuntimeLibraries: Sendable, Equatable {
        /// Found as the dynamic loader would (DT_NEEDED in DT_RUNPATH, the file's directory), then
        /// in this toolchain library directory (e.g. /opt/swift/usr/lib/swift/linux; nil: the
        /// directory of the libswiftCore.so this process runs on). The static metadata reader
        /// takes the runtime's value witness tables from this directory's libswiftCore.so.
        case resolved(toolchainDirectory: String?)
        /// Exactly these files; the static metadata reader takes the runtime's value witness
        /// tables from the libswiftCore.so among them (none: those sizes are unknown).
        case explicit([String])
    }

    /// Read DWARF: C and C++ types are added, and with ``checksSwiftAgainstDWARF`` the Swift
    /// layouts are compared with DWARF's (a disagreement is a note).
    public var readsDWARF: Bool
    /// Compare the Swift layouts with DWARF's description of them (costs reading DWARF's Swift types).
    public var checksSwiftAgainstDWARF: Bool
    /// Merge the layouts the toolchain's type lowering computes (libswiftRemoteMirror in a worker
    /// process) into the static metadata's.
    public var computesLayouts: Bool
    /// The runtime libraries the file depends on.
    public var runtimeLibraries: RuntimeLibraries
    /// The libswiftRemoteMirror.so to lay types out with; nil: the one beside the toolchain libraries.
    public var remoteMirrorPath: String?
    /// The `typeinfo-lowering` worker executable; nil: the one beside the running executable.
    public var workerPath: String?
    /// The document's notes are shown: the Swift types shown are compared with DWARF's (with
    /// ``checksSwiftAgainstDWARF``), which costs reading DWARF's Swift units. A caller that does
    /// not show notes sets it false: with a selection, DWARF is then read only when a C type can
    /// be selected. With a selection the notes describe the selected types and the file
    /// (``BinaryLayoutReader/read(path:selection:options:)``).
    public var wantsFileNotes: Bool
    /// The selection reaches the readers (true), or every type is read and the selection applied
    /// afterwards (false: the way to check, and to measure, that the two give the same output).
    public var selectionReachesReaders: Bool
    /// The DWARF reader's shortcuts (all on by default); turning one off must not change the output.
    public var dwarfShortcuts: DWARFReadingShortcuts

    /// Creates options; the defaults read every source.
    public init(
        readsDWARF: Bool = true,
        checksSwiftAgainstDWARF: Bool = true,
        computesLayouts: Bool = true,
        runtimeLibraries: RuntimeLibraries = .resolved(toolchainDirectory: nil),
        remoteMirrorPath: String? = nil,
        workerPath: String? = nil,
        wantsFileNotes: Bool = true,
        selectionReachesReaders: Bool = true,
        dwarfShortcuts: DWARFReadingShortcuts = DWARFReadingShortcuts()
    ) {
        self.readsDWARF = readsDWARF
        self.checksSwiftAgainstDWARF = checksSwiftAgainstDWARF
        self.computesLayouts = computesLayouts
        self.runtimeLibraries = runtimeLibraries
        self.remoteMirrorPath = remoteMirrorPath
        self.workerPath = workerPath
        self.wantsFileNotes = wantsFileNotes
        self.selectionReachesReaders = selectionReachesReaders
        self.dwarfShortcuts = dwarfShortcuts
    }
}
