#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The JSON form of a holes analysis over one or more types: what
/// `typeinfo layout --format json` prints, documented in `docs/layout-checks.md`.
public struct LayoutHolesReport: Hashable, Sendable, Codable {
    /// The value of the `format` key.
    public static let formatName = "typeinfo-layout-holes"
    /// The report version this build writes.
    public static let currentVersion = 1

    /// Always ``formatName``.
    public var format: String
    /// The report format version.
    public var version: Int
    /// The image the layouts came from, if the caller said.
    public var image: String?
    /// One analysis per type.
    public var types: [LayoutHoles]
    /// Totals across ``types``.
    public var total: Total

    /// Totals across the analysed types.
    public struct Total: Hashable, Sendable, Codable {
        /// Types analysed.
        public var types: Int
        /// Types with at least one wasted byte.
        public var typesWithWaste: Int
        /// Holes between fields.
        public var holes: Int
        /// Bytes in holes.
        public var holeBytes: Int
        /// Bytes of tail padding.
        public var paddingBytes: Int
        /// Holes plus padding.
        public var wastedBytes: Int
        /// Bytes the suggested orders would save, summed over types (per value each).
        public var reorderSavings: Int
    }

    /// Builds the report.
    ///
    /// - Parameters:
    ///   - analyses: the analysed types.
    ///   - image: a label for where they came from.
    public init(_ analyses: [LayoutHoles], image: String? = nil) {
        format = Self.formatName
        version = Self.currentVersion
        self.image = image
        types = analyses
        total = Total(
            types: analyses.count,
            typesWithWaste: analyses.filter { $0.wastedBytes > 0 }.count,
            holes: LayoutHoles.total(analyses.map { $0.holeCount }),
            holeBytes: LayoutHoles.total(analyses.map { $0.holeBytes }),
            paddingBytes: LayoutHoles.total(analyses.map { $0.paddingBytes }),
            wastedBytes: LayoutHoles.total(analyses.map { $0.wastedBytes }),
            reorderSavings: LayoutHoles.total(analyses.map { ($0.reorder?.savedBytes ?? 0) })
        )
    }

    /// The report as pretty-printed JSON with sorted keys, ending in a newline.
    ///
    /// - Returns: UTF-8 JSON.
    /// - Throws: only if encoding fails, which plain values do not.
    public func jsonData() throws -> Data {
        try LayoutJSON.encode(self)
    }
}
