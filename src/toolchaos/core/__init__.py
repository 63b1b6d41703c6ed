"""The shared vocabulary: types, the world base, tools and schema building, errors."""
