import Foundation
import Synchronization
import Testing

@testable import ModelMapper

/// Collects a mapper's diagnostic lines, so tests can check what was reported and how often.
final class DiagnosticsCollector: Sendable {
    private let lines = Mutex<[String]>([])

    /// Everything reported so far.
    var reported: [String] { lines.withLock { $0 } }

    /// A mapper that reports into this collector.
    func mapper(_ mode: MappingMode = .lenient, writesNilAsNull: Bool = true) -> ModelMapper {
        ModelMapper(
            options: MappingOptions(
                mode: mode, writesNilAsNull: writesNilAsNull,
                diagnostics: { line in
                    self.lines.withLock { $0.append(line) }
                }))
    }
}

/// The JSON object `data` encodes, for comparisons that do not depend on key order.
func jsonObject(_ data: Data) throws -> NSDictionary {
    try #require(JSONSerialization.jsonObject(with: data) as? NSDictionary)
}
