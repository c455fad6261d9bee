// `import TypeInfo` is the one import a user needs: the plain values TypeInfo's API returns
// (`TypeKind`, `Ownership`, `TypeLayout`, `FieldLayout`, `LayoutDocument`, `LayoutHoles`) are
// declared in TypeLayout, the layer every reader shares, and are re-exported here.
@_exported import TypeLayout
