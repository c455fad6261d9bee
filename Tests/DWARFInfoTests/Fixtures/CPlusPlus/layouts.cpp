#include "layouts.hpp"
namespace geo {
int detail::Node::instances = 0;
Shape::~Shape() {}
double Shape::area() const { return 0; }
}
// One object of each type, so that the compiler describes every type in DWARF.
geo::Vec fixtureVec;
geo::detail::Node fixtureNode;
geo::Derived fixtureDerived;
geo::Shape fixtureShape;
geo::Kind fixtureKind;
geo::Bits fixtureBits;
geo::Holder fixtureHolder{fixtureVec, nullptr, geo::Kind::line, {}, 0, 0};
