import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TypeLayout

private struct Padded { var a: Bool; var b: Int; var c: Bool }
private struct Straddling {
    var a: (Int64, Int64, Int64, Int64, Int64, Int64, Int64); var b: UInt16; var c: (UInt32, UInt32, UInt32); var d: Int64
}

/// Collects element names and attributes, proving the document parses as XML.
final class SVGCollector: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []
    var texts: [String] = []
    private var text = ""

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append((name, attributes))
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text" || name == "title" { texts.append(text) }
        text = ""
    }

    static func parse(_ svg: String) -> SVGCollector? {
        let collector = SVGCollector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        return parser.parse() ? collector : nil
    }
}

@Suite struct LayoutSVGTests {
    let padded = Measured.structLayout(Padded.self, name: "Demo.Padded", [("a", \Padded.a), ("b", \Padded.b), ("c", \Padded.c)])

    @Test func pictureIsWellFormedAndShowsEveryFieldHoleAndPadding() throws {
        let holes = LayoutHoles(padded, alignmentOf: Measured.alignments([Bool.self, Int.self]).alignment(of:))
        let collector = try #require(SVGCollector.parse(holes.svg()))
        #expect(collector.elements.first?.name == "svg")
        // Every field, the hole and the padding have a tooltip with offset and size.
        for row in holes.rows {
            let expected = "offset \(row.offset), size \(row.size ?? -1)"
            #expect(collector.texts.contains { $0.hasPrefix(expected) }, "\(expected)")
        }
        #expect(collector.elements.contains { $0.attributes["fill"] == "url(#hole)" })
        #expect(collector.elements.contains { $0.attributes["fill"] == "url(#padding)" })
        // The byte ruler numbers the columns of a row.
        #expect(collector.texts.contains("7"))
        #expect(collector.texts.contains { $0.hasPrefix("wasted \(holes.wastedBytes) of \(MemoryLayout<Padded>.stride) bytes") })
        #expect(collector.texts.contains { $0.hasPrefix("suggested order: b, a, c") })
    }

    @Test func namesAreEscaped() throws {
        let odd = TypeLayout(
            name: "Demo.Box<A & B>", kind: .struct, size: 8, alignment: 8, stride: 8,
            fields: [FieldLayout(name: "x\"<&>'", type: "Swift.Dictionary<Swift.String, Swift.Int>", offset: 0, size: 8)])
        let collector = try #require(SVGCollector.parse(LayoutHoles(odd).svg()))
        #expect(collector.texts.contains { $0.contains("x\"<&>': Swift.Dictionary<Swift.String, Swift.Int>") })
        #expect(collector.texts.contains("struct Demo.Box<A & B>"))
    }

    @Test func hugeAndHostileSizesAreCutOff() throws {
        let huge = TypeLayout(
            name: "Demo.Huge", kind: .struct, size: Int.max, alignment: 8, stride: Int.max,
            fields: [
                FieldLayout(name: "a", type: "T", offset: Int.max - 1, size: 8),
                FieldLayout(name: "b", type: "T", offset: 0, size: nil),
            ])
        let svg = LayoutHoles(huge).svg()
        let collector = try #require(SVGCollector.parse(svg))
        #expect(collector.texts.contains { $0.hasPrefix("(showing the first") })
        #expect(svg.utf8.count < 4_000_000)
    }

    @Test func overlappingMembersAreStacked() throws {
        let union = TypeLayout(
            name: "c.Value", kind: .union, size: 8, alignment: 8, stride: 8,
            fields: [
                FieldLayout(name: "wide", type: "int64_t", offset: 0, size: 8),
                FieldLayout(name: "narrow", type: "int32_t", offset: 0, size: 4),
            ])
        let collector = try #require(SVGCollector.parse(LayoutHoles(union).svg()))
        let boxes = collector.elements.filter { $0.name == "rect" && $0.attributes["rx"] == "3" }
        #expect(boxes.count == 2)
        #expect(Set(boxes.compactMap { $0.attributes["y"] }).count == 2, "one lane each")
    }

    /// Box labels drop module qualifiers but keep brackets and generic arguments; the runtime's
    /// own qualified and unqualified spellings of a type are the oracle.
    @Test func shortLabelsKeepBracketsAndGenericArguments() throws {
        let qualified = _typeName([String: Int?].self, qualified: true)
        let unqualified = _typeName([String: Int?].self, qualified: false)
        #expect(qualified != unqualified)
        for (type, expected) in [("[Swift.String]", "[String]"), (qualified, unqualified)] {
            let layout = TypeLayout(
                name: "Demo.Labels", kind: .struct, size: 8, alignment: 8, stride: 8,
                fields: [FieldLayout(name: "a", type: type, offset: 0, size: 8)])
            let collector = try #require(SVGCollector.parse(LayoutHoles(layout).svg()))
            #expect(collector.texts.contains(expected), "\(collector.texts)")
        }
    }

    @Test func cacheLineBoundariesAreDrawnAndCounted() throws {
        let layout = Measured.structLayout(
            Straddling.self, name: "Demo.Straddling",
            [("a", \Straddling.a), ("b", \Straddling.b), ("c", \Straddling.c), ("d", \Straddling.d)])
        let holes = LayoutHoles(layout)
        let collector = try #require(SVGCollector.parse(holes.svg()))
        let boundaries = (MemoryLayout<Straddling>.size - 1) / 64
        for line in 1...max(boundaries, 1) where boundaries > 0 {
            #expect(collector.texts.contains("cache line \(line) starts at offset \(line * 64)"))
        }
        let offsetC = try #require(MemoryLayout<Straddling>.offset(of: \.c))
        #expect(
            collector.texts.contains(
                "cache lines: \(boundaries + 1) of 64 bytes; 'c' (offset \(offsetC), size \(MemoryLayout<(UInt32, UInt32, UInt32)>.size)) straddles a boundary"
            ))
        let none = try #require(SVGCollector.parse(holes.svg(.init(cacheLineSize: nil))))
        #expect(!none.texts.contains { $0.hasPrefix("cache line") })
    }
}
