<?php

namespace App\Repositories;

use App\Models\User;

/**
 * Loads users from the database.
 */
#[Repository]
final class UserRepository
{
    private array $cache = [];

    /** Find a user by id. */
    public function find(int $id): ?User
    {
        return $this->cache[$id] ?? null;
    }
}

interface Finder
{
    public function find(int $id): ?User;
}

function helper(): string
{
    return "x";
}
