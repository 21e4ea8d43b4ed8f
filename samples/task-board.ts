// A Kanban board in TypeScript: declared types (enum, unions of literals, an options interface, a class, a
// callback type) decide every parameter; `./task.js` names task.ts, as Node's NodeNext resolution does.
import { Priority, Task, type Status, type TaskOptions } from './task.js';

export type SortKey = 'priority' | 'title' | 'estimate';

export class TaskBoard {
  private readonly tasks: Task[] = [];
  private nextId = 1;

  constructor(private readonly wipLimit: number = 3) {
    if (!Number.isInteger(wipLimit) || wipLimit < 1) throw new RangeError(`bad WIP limit: ${wipLimit}`);
  }

  add(options: TaskOptions): Task {
    if (this.tasks.some((t) => t.title === options.title)) {
      throw new Error(`duplicate task: ${options.title}`);
    }
    const task = new Task(this.nextId++, options.title, options.priority, options.tags ?? [], options.estimate);
    this.tasks.push(task);
    return task;
  }

  move(task: Task, to: Status): boolean {
    if (!this.tasks.includes(task)) return false;
    if (task.status === to) return false;
    if (to === 'doing' && this.count('doing') >= this.wipLimit) {
      throw new Error(`WIP limit of ${this.wipLimit} reached`);
    }
    if (task.status === 'done' && to === 'todo') return false;
    task.status = to;
    return true;
  }

  count(status?: Status): number {
    return status === undefined ? this.tasks.length : this.tasks.filter((t) => t.status === status).length;
  }

  filter(predicate: (task: Task) => boolean): Task[] {
    return this.tasks.filter((t) => predicate(t));
  }

  sorted(key: SortKey, order: 'asc' | 'desc' = 'asc'): string[] {
    const sign = order === 'asc' ? 1 : -1;
    const value = (t: Task): number | string => {
      switch (key) {
        case 'priority':
          return t.priority;
        case 'estimate':
          return t.estimate ?? Number.POSITIVE_INFINITY;
        default:
          return t.title;
      }
    };
    return [...this.tasks]
      .sort((a, b) => (value(a) < value(b) ? -sign : value(a) > value(b) ? sign : 0))
      .map((t) => t.title);
  }

  urgent(minimum: Priority = Priority.High): Task[] {
    return this.tasks.filter((t) => t.priority >= minimum && t.status !== 'done');
  }

  remaining(): number {
    let total = 0;
    for (const t of this.tasks) {
      if (t.status === 'done') continue;
      if (t.estimate === undefined) return Number.NaN;
      total += t.estimate;
    }
    return total;
  }
}
