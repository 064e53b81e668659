package com.example.greet

import kotlin.math.max

/** Greets people. */
@Suppress("unused")
class Greeter(val name: String) {
    fun greet(): String {
        return "hi $name"
    }

    companion object {
        fun make(): Greeter = Greeter("x")
    }
}

object Registry {
    fun all(): Int = max(1, 2)
}

interface Shape {
    fun area(): Double
}

fun top(x: Int): Int {
    return x
}
