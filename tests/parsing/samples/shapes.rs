use std::fmt;

/// A point in the plane.
#[derive(Debug, Clone)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

pub trait Area {
    fn area(&self) -> f64;
}

impl Point {
    /// Distance from the origin.
    pub fn norm(&self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

pub enum Shape {
    Circle(f64),
    Square(f64),
}

mod tests {
    fn origin() {}
}
