#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TypeLayout

/// Output helpers for `typeinfo dump`.
enum DumpOutput {
    /// Several documents (one per path) as one JSON array of documents.
    static func jsonArray(_ documents: [LayoutDocument]) throws -> Data {
        var data = Data("[\n".utf8)
        for (index, document) in documents.enumerated() {
            var json = try document.jsonData()
            if json.last == 0x0A { json.removeLast() }
            data.append(json)
            data.append(contentsOf: Array((index + 1 < documents.count ? ",\n" : "\n").utf8))
        }
        data.append(contentsOf: Array("]\n".utf8))
        return data
    }
}
