import BenchmarkSupport
import TypeInfo

// Issue 10's rows: an inherited property set on a subclass-typed instance, a typed get from a
// struct with reference-counted fields against one of plain data, the factory and enum values,
// each beside the direct Swift code doing the same.

/// Plain data: copying it retains nothing.
struct PlainData { var a: Int = 1; var b: Double = 2; var c: Int32 = 3; var d: Bool = true; var ratio: Double = 5 }

/// Reference-counted fields around the `Double` that is read.
struct CountedFields {
    var name: String = "name that is not small"; var tags: [String] = ["t"]; var ratio: Double = 2.5
    var owner: Level1 = Level1(); var note: String? = "x"
}

/// A model with no `init()` for the factory, its fields of the kinds mappers see.
struct FactoryModel {
    var id: Int; var name: String; var score: Double; var tags: [String]; var nickname: String?
    var active: Bool; var point: PlainData; var counts: [String: Int]; var stamp: Int64; var state: Event
}

enum Event { case click(x: Double, y: Double), key(String), idle }

func issue10AccessTimings() -> [Timing?] {
    let level3 = Level3()
    var typed = level3
    guard let inherited = ClassInfo.of(Level3.self).propertyInfo(named: "a"),
          let plainRatio = ClassInfo.of(PlainData.self).propertyInfo(named: "ratio"),
          let countedRatio = ClassInfo.of(CountedFields.self).propertyInfo(named: "ratio")
    else { fatalError("benchmark types lost their properties") }
    let plain = PlainData()
    let counted = CountedFields()
    // A `var` captured by the closure lives in a box: passing it by value copies the whole struct.
    var countedVar = CountedFields()
    var counter = 0
    let timings = [
        row("direct set of an inherited Int: object.a = n", iterations: 1_000_000) { counter &+= 1; level3.a = counter },
        row("PropertyInfo.set(Int, on: &subclassTyped) (inherited)", iterations: 1_000_000) {
            counter &+= 1
            try? inherited.set(counter, on: &typed)
        },
        row("direct read of a Double, plain-data struct", iterations: 1_000_000) { plain.ratio },
        row("PropertyInfo.get(Double.self) from a plain-data struct", iterations: 1_000_000) {
            (try? plainRatio.get(Double.self, from: plain)) ?? 0
        },
        row("direct read of a Double, struct with reference-counted fields", iterations: 1_000_000) { counted.ratio },
        row("PropertyInfo.get(Double.self) from a struct with reference-counted fields", iterations: 1_000_000) {
            (try? countedRatio.get(Double.self, from: counted)) ?? 0
        },
        row("direct read of a Double, `var` struct with reference-counted fields", iterations: 1_000_000) { countedVar.ratio },
        row("PropertyInfo.get(Double.self, from: countedVar)", iterations: 1_000_000) {
            (try? countedRatio.get(Double.self, from: countedVar)) ?? 0
        },
        row("PropertyInfo.get(Double.self, from: &countedVar)", iterations: 1_000_000) {
            (try? countedRatio.get(Double.self, from: &countedVar)) ?? 0
        },
    ]
    blackHole(level3)
    blackHole(countedVar)
    return timings
}

func factoryTimings() -> [Timing?] {
    let modelInfo = ClassInfo.of(FactoryModel.self)
    let classInfo = ClassInfo.of(Level3.self)
    return [
        row("direct: FactoryModel(all zero/empty)", iterations: 200_000) {
            FactoryModel(id: 0, name: "", score: 0, tags: [], nickname: nil, active: false, point: PlainData(a: 0, b: 0, c: 0, d: false, ratio: 0),
                         counts: [:], stamp: 0, state: .idle)
        },
        row("ClassInfo.makeInstance(FactoryModel.self)", iterations: 50_000) { try? modelInfo.makeInstance(FactoryModel.self) },
        row("direct: Level3()", iterations: 200_000) { Level3() },
        row("ClassInfo.makeInstance(Level3.self)", iterations: 50_000) { try? classInfo.makeInstance(Level3.self) },
    ]
}

func enumTimings() -> [Timing?] {
    let info = ClassInfo.of(Event.self)
    let values: [Event] = [.click(x: 1, y: 2), .key("k"), .idle]
    var cursor = 0
    return [
        row("direct: switch -> (case name, payload as Any)", iterations: 300_000) { () -> (String, Any?) in
            cursor = (cursor + 1) % 3
            switch values[cursor] {
            case .click(let x, let y): return ("click", (x: x, y: y))
            case .key(let key): return ("key", key)
            case .idle: return ("idle", nil)
            }
        },
        row("ClassInfo.enumCase(of:)", iterations: 300_000) { () -> String in
            cursor = (cursor + 1) % 3
            return (try? info.enumCase(of: values[cursor]))?.caseName ?? ""
        },
        row("direct: Event.key(string)", iterations: 300_000) { Event.key("k") },
        row("ClassInfo.makeEnumValue(Event.self, caseNamed: \"key\", payload:)", iterations: 300_000) {
            try? info.makeEnumValue(Event.self, caseNamed: "key", payload: "k")
        },
    ]
}
