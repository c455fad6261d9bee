/// Source languages whose types a ``DWARFReader`` returns.
public struct DWARFLanguages: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    /// Creates a set from its raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// C (C89 to C17), and languages this reader names like C (Objective-C, assembly, others).
    public static let c = DWARFLanguages(rawValue: 1 << 0)
    /// C++ (98 to 20): scoped names (`ns::Outer::Inner`), base-class members first.
    public static let cPlusPlus = DWARFLanguages(rawValue: 1 << 1)
    /// Swift types (built with `-Xfrontend -gdwarf-types` to have members).
    public static let swift = DWARFLanguages(rawValue: 1 << 2)

    /// C and C++: the types for which DWARF is the first witness.
    public static let cFamily: DWARFLanguages = [.c, .cPlusPlus]
    /// Every language.
    public static let all: DWARFLanguages = [.c, .cPlusPlus, .swift]
}
