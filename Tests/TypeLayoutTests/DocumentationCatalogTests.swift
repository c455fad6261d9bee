import Foundation
import Testing

// A cheap stand-in for `swift package generate-documentation` (too slow for every CI run):
// each library product has a DocC catalog whose landing page is its module's, and every
// `<doc:Article>` a catalog links to is an article in it (what DocC warns about first).

private let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

@Suite(
    .enabled(
        if: FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent("Package.swift").path),
        "needs the package's sources beside the test"))
struct DocumentationCatalogTests {
    /// The library products in Package.swift (`.library(name: "X", targets: ["X"])`).
    func libraries() throws -> [String] {
        let manifest = try String(contentsOf: packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        return manifest.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: ".library(name: \"") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "\"" })
        }
    }

    @Test func everyLibraryHasACatalogWithResolvableArticleLinks() throws {
        let names = try libraries()
        #expect(names.count >= 8, "\(names)")
        for name in names {
            let catalog = packageRoot.appendingPathComponent("Sources/\(name)/\(name).docc")
            let landing = catalog.appendingPathComponent("\(name).md")
            guard let text = try? String(contentsOf: landing, encoding: .utf8) else {
                Issue.record("\(name): no DocC landing page at Sources/\(name)/\(name).docc/\(name).md")
                continue
            }
            #expect(text.hasPrefix("# ``\(name)``\n"), "\(landing.path): the title must be the module symbol")
            let articles = try FileManager.default.contentsOfDirectory(atPath: catalog.path).filter { $0.hasSuffix(".md") }
            for article in articles {
                let body = try String(contentsOf: catalog.appendingPathComponent(article), encoding: .utf8)
                var rest = body[...]
                while let link = rest.range(of: "<doc:") {
                    let target = rest[link.upperBound...].prefix { $0 != ">" }
                    #expect(
                        articles.contains(target + ".md"), "\(name).docc/\(article) links to <doc:\(target)>, which is not in the catalog")
                    rest = rest[link.upperBound...]
                }
            }
        }
    }
}
