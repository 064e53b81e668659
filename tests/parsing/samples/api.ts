import { Injectable } from "@angular/core";

/** A user of the system. */
export interface User {
  id: string;
  name: string;
}

export type UserId = string;

export enum Role {
  Admin,
  Reader,
}

@Injectable({ providedIn: "root" })
export class UserService {
  private cache = new Map<UserId, User>();

  /** Look a user up by id. */
  async find(id: UserId): Promise<User | undefined> {
    return this.cache.get(id);
  }
}

export function isAdmin(role: Role): boolean {
  return role === Role.Admin;
}
