require "json"

# Greets people politely.
module Greeting
  # A greeter with a fixed salutation.
  class Greeter
    attr_reader :salutation

    def initialize(salutation)
      @salutation = salutation
    end

    # Greet one person.
    def greet(name)
      "#{salutation}, #{name}!"
    end

    def self.default
      new("Hello")
    end
  end
end

def shout(text)
  text.upcase
end
