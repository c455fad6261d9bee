/// The reader's shortcuts, each of which can be turned off so that tests, benchmarks and the
/// fuzz target can compare the output with and without it (the output must not change).
///
/// Every shortcut is on by default; `typeinfo` turns them off with its hidden `--dwarf-*`
/// options (`typeinfo dump --help-hidden`).
public struct DWARFReadingShortcuts: Sendable, Equatable {
    /// libdwarf reads the bytes BinaryInfo mapped (false: it opens the file itself).
    public var readsSharedBytes: Bool
    /// A reading of a few types reads only the Swift units whose top-level names can hold them
    /// (false: every Swift unit).
    public var filtersUnits: Bool
    /// One unit's entries are kept at a time (false: every entry of the file is kept until the
    /// layouts are made).
    public var readsUnitByUnit: Bool
    /// A reading of a few Swift types stops at the unit that gives the last layout it wants
    /// (false: it reads on to the last unit).
    public var stopsOnceFound: Bool

    /// Creates shortcuts; by default all are on.
    public init(readsSharedBytes: Bool = true, filtersUnits: Bool = true, readsUnitByUnit: Bool = true, stopsOnceFound: Bool = true) {
        self.readsSharedBytes = readsSharedBytes
        self.filtersUnits = filtersUnits
        self.readsUnitByUnit = readsUnitByUnit
        self.stopsOnceFound = stopsOnceFound
    }
}
