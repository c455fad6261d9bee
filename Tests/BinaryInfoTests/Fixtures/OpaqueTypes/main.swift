// Opaque result types (`some P`): an -Onone build registers their descriptors (context kind 4)
// in swift5_type_metadata beside the nominal types. OpaqueTypeRecordTests reads both builds.
protocol Shape { func area() -> Double }

struct Square: Shape {
    var side: Double
    func area() -> Double { side * side }
}

struct Circle: Shape {
    var radius: Double
    func area() -> Double { 3 * radius * radius }
}

func makeShape() -> some Shape { Square(side: 2) }

struct Holder {
    var shape: some Shape = Square(side: 3)
    var count = 1
}

extension Square {
    var rounded: some Shape { Circle(radius: side) }
}

func pair() -> (some Shape, some Equatable) { (Circle(radius: 1), 3) }

print(makeShape().area(), Holder().shape.area(), Holder().count, pair().0.area(), Square(side: 1).rounded.area())
