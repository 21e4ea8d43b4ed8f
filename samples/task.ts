// A task and what it carries: an enum, a union of literals and an options interface (task-board.ts uses it).
export enum Priority {
  Low = 1,
  Normal = 2,
  High = 3,
}

export type Status = 'todo' | 'doing' | 'done';

export interface TaskOptions {
  title: string;
  priority?: Priority;
  tags?: string[];
  estimate?: number;
}

export class Task {
  status: Status = 'todo';
  readonly tags: string[];

  constructor(
    readonly id: number,
    readonly title: string,
    readonly priority: Priority = Priority.Normal,
    tags: string[] = [],
    readonly estimate?: number,
  ) {
    if (title.trim() === '') throw new Error('a task needs a title');
    this.tags = tags.map((t) => t.toLowerCase());
  }

  hasTag(tag: string): boolean {
    return this.tags.includes(tag.toLowerCase());
  }
}
