import Foundation
import Testing
import TypeLayout

/// The holder-chain picture (`leaks --format svg`, `retainers --format svg`) says what the text
/// says: every holder whole, in order, an arrow per pointer, and the arrow that closes a cycle.
@Suite struct HolderChainSVGTests {
    let longName =
        "closure context or box (2 captured values, of partial apply forwarder for closure #1 () -> () in MyApp.Session.init(handler: MyApp.Handler<Swift.Dictionary<Swift.String, Swift.Int>>) -> MyApp.Session)"

    @Test func everyHolderIsDrawnWholeWithAnArrowPerPointer() throws {
        let picture = HolderChainSVG(
            title: "Retain cycles & <paths>",
            chains: [
                .init(
                    heading: "path 1 (2 steps)",
                    steps: ["global MyApp.store : MyApp.Store (MyApp)", "MyApp.Store 0x10 .things", "MyApp.Thing<Int> 0x20"],
                    closesCycle: false),
                .init(heading: "3 cycles", steps: ["MyApp.Session.handler", longName], closesCycle: true),
            ])
        let collector = try #require(SVGCollector.parse(picture.document), "the document parses as XML")
        #expect(collector.elements.first?.name == "svg")
        #expect(collector.texts.first == "Retain cycles & <paths>")
        // Each holder is a group titled with its whole label, however long.
        for label in picture.chains.flatMap(\.steps) { #expect(collector.texts.contains(label), "\(label)") }
        #expect(collector.elements.filter { $0.attributes["class"] == "holder" }.count == 5)
        // Drawn lines, wrapped at spaces, give back the label.
        let drawn = collector.texts.filter { ($0.hasPrefix("closure context") || $0.hasPrefix("    ")) && $0 != longName }
        #expect(drawn.count > 1, "a long label is wrapped")
        #expect(drawn.map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : $0 }.joined(separator: " ") == longName)
        #expect(collector.elements.filter { $0.attributes["class"] == "points-to" }.count == 2 + 1)
        #expect(collector.elements.filter { $0.attributes["class"] == "points-back" }.count == 1, "only the cycle closes")
    }

    @Test func aLargeReportIsBoundedAndSaysWhatItLeftOut() throws {
        let many = (0..<(HolderChainSVG.chainLimit + 5)).map {
            HolderChainSVG.Chain(
                heading: "path \($0)", steps: (0..<(HolderChainSVG.stepLimit + 2)).map { "holder \($0)" }, closesCycle: false)
        }
        let collector = try #require(SVGCollector.parse(HolderChainSVG(title: "many", chains: many).document))
        #expect(collector.texts.contains("… 5 more, not drawn (the text and JSON reports list them)"))
        #expect(collector.texts.contains("… 2 more holders, not drawn (the text and JSON reports list them)"))
        #expect(
            collector.elements.filter { $0.attributes["class"] == "holder" }.count
                == HolderChainSVG.chainLimit * (HolderChainSVG.stepLimit + 1))
        let empty = try #require(SVGCollector.parse(HolderChainSVG(title: "none", chains: []).document))
        #expect(empty.texts.contains("nothing to draw"))
    }
}
